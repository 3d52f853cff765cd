public import ServiceCore

extension PaymentService {
    /// The case's name for logs and metrics, spelled out: the protocol's default finds it by
    /// reflection, which costs microseconds on every call.
    public var operationName: String {
        switch self {
        case .wallet: "wallet"
        case .createCharge: "createCharge"
        case .charge: "charge"
        case .refund: "refund"
        }
    }

    /// The case's path; identifiers are percent-encoded as single segments.
    public var path: RequestPath {
        switch self {
        case .wallet(let user): "/v1/wallets/\(user)"
        case .createCharge: "/v1/charges"
        case .charge(let id): "/v1/charges/\(id)"
        case .refund(let charge, _, _): "/v1/charges/\(charge)/refunds"
        }
    }

    /// The case's method.
    public var method: HTTPMethod {
        switch self {
        case .wallet, .charge: .get
        case .createCharge, .refund: .post
        }
    }

    /// The JSON bodies of ``createCharge(payer:payee:amount:memo:idempotencyKey:)`` and
    /// ``refund(charge:amountMinor:idempotencyKey:)``.
    public var task: RequestTask {
        switch self {
        case .wallet, .charge:
            .plain
        case .createCharge(let payer, let payee, let amount, let memo, _):
            .json(
                CreateChargeRequestBody(payerId: payer, payeeId: payee, amount: amount, memo: memo),
                encoder: SortedKeysJSONEncoder()
            )
        case .refund(_, let amountMinor, _):
            .json(CreateRefundRequestBody(amountMinor: amountMinor), encoder: SortedKeysJSONEncoder())
        }
    }

    /// `Idempotency-Key` for the cases that move money.
    public var headers: HTTPHeaders {
        switch self {
        case .wallet, .charge: [:]
        case .createCharge(_, _, _, _, let key), .refund(_, _, let key): ["Idempotency-Key": key]
        }
    }

    /// Reads are idempotent; moving money may be repeated only with the same idempotency key.
    public var policy: RequestPolicy {
        switch self {
        case .wallet, .charge: .default(for: method)
        case .createCharge, .refund: RequestPolicy(timeout: .seconds(10), retry: .requiresIdempotencyKey)
        }
    }
}
