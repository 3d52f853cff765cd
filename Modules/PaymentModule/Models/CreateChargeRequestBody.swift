/// The body of `POST /v1/charges`: payer, payee, amount and an optional memo (left out when `nil`).
struct CreateChargeRequestBody: Encodable, Sendable, Equatable {
    /// The paying user's id.
    var payerId: String
    /// The paid user's id.
    var payeeId: String
    /// The amount.
    var amount: Money
    /// The payer's note.
    var memo: String?
}
