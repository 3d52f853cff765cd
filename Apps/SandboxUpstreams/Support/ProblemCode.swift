import Foundation

/// A problem code of `docs/upstreams.md` section 5: the stable machine-readable `code` member,
/// with the status and fixed title that go with it.
struct ProblemCode: Hashable, Sendable {
    /// The code, for example `user_not_found`.
    let name: String
    /// The HTTP status it is answered with.
    let status: Int
    /// The fixed, short title of the problem type.
    let title: String

    /// The problem type URI: `https://errors.example.com/problems/<code with - for _>`.
    var type: String {
        "https://errors.example.com/problems/" + name.replacingOccurrences(of: "_", with: "-")
    }

    static let invalidRequest = ProblemCode(name: "invalid_request", status: 400, title: "Invalid request")
    static let invalidCursor = ProblemCode(name: "invalid_cursor", status: 400, title: "Invalid cursor")
    static let idempotencyKeyMissing = ProblemCode(
        name: "idempotency_key_missing", status: 400, title: "Idempotency key missing")
    static let signatureMissing = ProblemCode(name: "signature_missing", status: 401, title: "Signature missing")
    static let signatureInvalid = ProblemCode(name: "signature_invalid", status: 401, title: "Signature invalid")
    static let signatureExpired = ProblemCode(name: "signature_expired", status: 401, title: "Signature expired")
    static let signatureReplayed = ProblemCode(name: "signature_replayed", status: 401, title: "Signature replayed")
    static let keyUnknown = ProblemCode(name: "key_unknown", status: 401, title: "Unknown signing key")
    static let tagMismatch = ProblemCode(name: "tag_mismatch", status: 401, title: "Signature tag mismatch")
    static let digestMismatch = ProblemCode(name: "digest_mismatch", status: 401, title: "Content digest mismatch")
    static let invalidToken = ProblemCode(name: "invalid_token", status: 401, title: "Invalid access token")
    static let notFound = ProblemCode(name: "not_found", status: 404, title: "Not found")
    static let userNotFound = ProblemCode(name: "user_not_found", status: 404, title: "User not found")
    static let postNotFound = ProblemCode(name: "post_not_found", status: 404, title: "Post not found")
    static let walletNotFound = ProblemCode(name: "wallet_not_found", status: 404, title: "Wallet not found")
    static let chargeNotFound = ProblemCode(name: "charge_not_found", status: 404, title: "Charge not found")
    static let methodNotAllowed = ProblemCode(name: "method_not_allowed", status: 405, title: "Method not allowed")
    static let idempotencyKeyInUse = ProblemCode(
        name: "idempotency_key_in_use", status: 409, title: "Idempotency key in use")
    static let bodyTooLarge = ProblemCode(name: "body_too_large", status: 413, title: "Body too large")
    static let attachmentTooLarge = ProblemCode(
        name: "attachment_too_large", status: 413, title: "Attachment too large")
    static let unsupportedMediaType = ProblemCode(
        name: "unsupported_media_type", status: 415, title: "Unsupported media type")
    static let cannotFollowSelf = ProblemCode(name: "cannot_follow_self", status: 422, title: "Cannot follow self")
    static let insufficientFunds = ProblemCode(name: "insufficient_funds", status: 422, title: "Insufficient funds")
    static let currencyMismatch = ProblemCode(name: "currency_mismatch", status: 422, title: "Currency mismatch")
    static let refundExceedsCharge = ProblemCode(
        name: "refund_exceeds_charge", status: 422, title: "Refund exceeds charge")
    static let idempotencyKeyReused = ProblemCode(
        name: "idempotency_key_reused", status: 422, title: "Idempotency key reused")
    static let rateLimited = ProblemCode(name: "rate_limited", status: 429, title: "Rate limited")
    static let internalError = ProblemCode(name: "internal_error", status: 500, title: "Internal error")
    static let unavailable = ProblemCode(name: "unavailable", status: 503, title: "Service unavailable")
    /// A store the answer needs (the payment ledger's Redis) cannot be reached; the detail names it.
    static let storeUnavailable = ProblemCode(name: "store_unavailable", status: 503, title: "Store unavailable")
    static let replayStoreUnavailable = ProblemCode(
        name: "replay_store_unavailable", status: 503, title: "Replay store unavailable")
}
