public import ServiceCore

/// The payment upstream's API: wallets, charges and refunds.
///
/// Each case is data; send it with ``PaymentClient`` (which validates inputs first) or with a
/// `ServiceClient<PaymentService>`. The exact requests and answers are specified in
/// `docs/upstreams-payment.md` (the conventions for every domain in `docs/upstreams.md`). Money
/// is integer minor units with an ISO 4217 code, never a floating-point number. Creating a charge
/// or a refund carries an `Idempotency-Key` header and has the retry class
/// `requiresIdempotencyKey`: repeating it with the same key never moves money twice.
public enum PaymentService: Service, Equatable {
    /// `GET /v1/wallets/{user}`: a user's wallet.
    case wallet(user: String)
    /// `POST /v1/charges` with `Idempotency-Key`: `payer` pays `payee` `amount`.
    case createCharge(payer: String, payee: String, amount: Money, memo: String?, idempotencyKey: String)
    /// `GET /v1/charges/{id}`: one charge.
    case charge(id: String)
    /// `POST /v1/charges/{id}/refunds` with `Idempotency-Key`: gives back part or all of a charge,
    /// in the charge's currency.
    case refund(charge: String, amountMinor: Int64, idempotencyKey: String)

    /// The upstream's error body.
    public typealias ErrorEnvelope = PaymentErrorEnvelope

    /// `PaymentModule`.
    public static var moduleName: String { PaymentModuleIdentity.name }
}
