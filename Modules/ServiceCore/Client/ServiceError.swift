public import Foundation
public import HTTPTypes

/// Every failure of a ``ServiceClient`` call, with what is known about it.
///
/// Switch on ``code``; read ``envelope(as:)`` for the upstream's decoded error body. The
/// ``description`` names the module, the case, the request line and the cause, and never
/// header values or body bytes beyond the bounded ``ResponseSummary/bodyPrefix``.
public struct ServiceError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure it was. A struct of constants, so new codes do not break users.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The client's configuration is invalid (for example a base URL that is not absolute
        /// http(s)); raised when the client is created.
        public static let invalidConfiguration = Code("invalid configuration")
        /// The request could not be built: a bad path, an unencodable body, invalid input.
        public static let invalidRequest = Code("invalid request")
        /// The transport failed to exchange the request (refused, reset, too large...).
        public static let transport = Code("transport failure")
        /// The request timed out.
        public static let timeout = Code("timeout")
        /// The calling task was cancelled.
        public static let cancelled = Code("cancelled")
        /// The upstream answered with a status outside the case's accepted range.
        public static let unacceptableStatus = Code("unacceptable status")
        /// The response body could not be decoded into the expected type.
        public static let decoding = Code("decoding failure")
        /// Too little of the app request's ``RequestDeadline`` was left to start an attempt.
        public static let deadlineExceeded = Code("deadline exceeded")
        /// The module's circuit breaker is open; the call was not sent. The underlying
        /// ``ResilienceRejection`` says when to try again.
        public static let circuitOpen = Code("circuit open")
        /// The module's concurrency limit was reached; the call was not sent. The underlying
        /// ``ResilienceRejection`` says when to try again.
        public static let overloaded = Code("overloaded")
        /// A bearer credential could not be obtained or renewed.
        public static let credentialRefreshFailed = Code("credential refresh failed")

        /// The code's name.
        public var description: String { name }
    }

    /// The part of a response kept in an error: status, headers and a bounded body prefix.
    public struct ResponseSummary: Sendable {
        /// The status code.
        public var status: Int
        /// The header fields.
        public var headers: HTTPHeaders
        /// At most the client's configured number of body bytes (1 KiB by default).
        public var bodyPrefix: Data
        /// The full body length.
        public var bodyLength: Int

        /// Creates a summary keeping at most `limit` body bytes.
        public init(_ response: HTTPResponse, limit: Int) {
            status = response.status
            headers = response.headers
            bodyPrefix = response.body.prefix(limit)
            bodyLength = response.body.count
        }
    }

    /// What kind of failure it was.
    public var code: Code
    /// The feature module, for example `UserModule`.
    public var module: String
    /// The service case, for example `profile`.
    public var operation: String
    /// The request as built, when it got that far.
    public var request: HTTPRequest?
    /// The response, when one arrived.
    public var response: ResponseSummary?
    /// The upstream's decoded error envelope, when the body decoded as one.
    public var envelope: (any Sendable)?
    /// How many attempts were made (more than 1 when a middleware retried).
    public var attempts: Int
    /// The error that caused this one: a ``TransportError``, a `DecodingError`, ...
    public var underlying: (any Error)?
    /// What went wrong, for a person.
    public var message: String

    /// Creates an error.
    public init(
        code: Code,
        module: String,
        operation: String,
        message: String,
        request: HTTPRequest? = nil,
        response: ResponseSummary? = nil,
        envelope: (any Sendable)? = nil,
        attempts: Int = 0,
        underlying: (any Error)? = nil
    ) {
        self.code = code
        self.module = module
        self.operation = operation
        self.message = message
        self.request = request
        self.response = response
        self.envelope = envelope
        self.attempts = attempts
        self.underlying = underlying
    }

    /// The decoded envelope as `E`, or `nil` when there is none or it has another type.
    public func envelope<E>(as type: E.Type) -> E? {
        envelope as? E
    }

    /// `UserModule.profile: unacceptable status: HTTP 404 (GET https://…/v1/users/x, 1 attempt); upstream: …`.
    public var description: String {
        var text = "\(module).\(operation): \(code): \(message)"
        if let request {
            text += " (\(request.method) \(Self.redactedURL(request.urlString))"
            text += attempts > 0 ? ", \(attempts) attempt\(attempts == 1 ? "" : "s"))" : ")"
        }
        if let envelope {
            text += "; upstream error: \(envelope)"
        }
        return text
    }

    /// The URL without its query, whose values may carry tokens.
    private static func redactedURL(_ text: String) -> String {
        text.firstIndex(of: "?").map { String(text[..<$0]) + "?…" } ?? text
    }
}
