/// The body of `POST /v1/charges/{id}/refunds`: `{"amountMinor": 500}`, in the charge's currency.
struct CreateRefundRequestBody: Encodable, Sendable, Equatable {
    /// The amount to give back, in minor units.
    var amountMinor: Int64
}
