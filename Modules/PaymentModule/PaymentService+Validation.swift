public import ServiceCore

extension PaymentService {
    /// The largest amount in minor units: 2^53 - 1, which every JSON reader holds exactly.
    public static let maximumAmountMinor: Int64 = 9_007_199_254_740_991
    /// The longest memo, in Unicode scalars (code points).
    public static let maximumMemoLength = 140
    /// The longest idempotency key, in characters.
    public static let maximumIdempotencyKeyLength = 255

    /// Checks the case's inputs; `ServiceClient` calls it before it builds any request.
    ///
    /// Identifiers must be 1-128 bytes of UTF-8 without control characters and not `.` or `..`;
    /// payer and payee must differ; amounts must be 1 to 2^53 - 1 minor units of a known ISO 4217
    /// currency (``CurrencyCode/isKnown``); a memo, when given, 1-140 characters without control
    /// characters; an idempotency key 1-255 visible ASCII characters.
    /// - Throws: ``ServiceError`` with code `invalidRequest`, naming the field and the rule.
    public func validate() throws(ServiceError) {
        let check = InputRules(for: self)
        switch self {
        case .wallet(let user):
            try check.identifier(user, named: "user")
        case .charge(let id):
            try check.identifier(id, named: "id")
        case .createCharge(let payer, let payee, let amount, let memo, let key):
            try check.identifier(payer, named: "payer")
            try check.identifier(payee, named: "payee")
            guard payer != payee else { throw check.failure("payee must differ from payer") }
            try Self.validate(amountMinor: amount.amountMinor, named: "amount.amountMinor", check)
            guard amount.currency.isKnown else {
                throw check.failure("amount.currency must be a known ISO 4217 code such as EUR, USD or JPY")
            }
            if let memo { try Self.validate(memo: memo, check) }
            try Self.validate(idempotencyKey: key, check)
        case .refund(let charge, let amountMinor, let key):
            try check.identifier(charge, named: "charge")
            try Self.validate(amountMinor: amountMinor, named: "amountMinor", check)
            try Self.validate(idempotencyKey: key, check)
        }
    }

    private static func validate(amountMinor: Int64, named field: String, _ check: InputRules)
        throws(ServiceError)
    {
        guard amountMinor > 0 else { throw check.failure("\(field) must be positive, got \(amountMinor)") }
        guard amountMinor <= maximumAmountMinor else {
            throw check.failure("\(field) must be at most \(maximumAmountMinor), got \(amountMinor)")
        }
    }

    private static func validate(memo: String, _ check: InputRules) throws(ServiceError) {
        guard !memo.isEmpty else { throw check.failure("memo must not be empty; leave it out instead") }
        // Counted in Unicode scalars, as JSON Schema's maxLength and most clients count.
        let length = memo.unicodeScalars.count
        guard length <= maximumMemoLength else {
            throw check.failure("memo must be at most \(maximumMemoLength) characters, got \(length)")
        }
        guard !InputRules.hasControlCharacters(memo) else {
            throw check.failure("memo must not contain control characters")
        }
    }

    private static func validate(idempotencyKey key: String, _ check: InputRules) throws(ServiceError) {
        guard !key.isEmpty else { throw check.failure("idempotencyKey must not be empty") }
        guard key.utf8.count <= maximumIdempotencyKeyLength else {
            throw check.failure("idempotencyKey must be at most \(maximumIdempotencyKeyLength) characters")
        }
        guard key.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw check.failure(
                "idempotencyKey must be visible ASCII characters only (no spaces or control characters)")
        }
    }
}
