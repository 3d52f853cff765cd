import Foundation
public import HTTPTypes
import Synchronization

/// Shares one upstream call among concurrent identical reads: same case, same request (URL,
/// headers, body) and same acting user.
///
/// Only `GET` and `HEAD` of ``RequestPolicy/RetryClass/idempotent`` cases are shared, never a
/// write. The user comes from ``ActingUser/id`` unless the middleware was given another key
/// function, and the request's headers (its credentials among them) are part of the key, so two
/// users never share an answer. The first caller makes the call and the others wait for its
/// answer. A waiter that is cancelled stops waiting alone; when the caller making the call is
/// cancelled, the waiters that are not start the call again (one of them makes it), so no
/// caller's cancellation fails another.
public final class SingleFlightMiddleware: Middleware {
    /// What makes two calls identical, as one length-prefixed byte string: module, operation,
    /// user, method, URL, each header (name in lower case, value) and body. One allocation per
    /// call, hashed once (the table's lookups, insertion and removal reuse the hash); the
    /// prefixes keep parts from running into each other.
    private struct Key: Hashable, Sendable {
        var bytes: [UInt8]
        var hash = 0

        init(module: String, operation: String, user: String?, request: HTTPRequest) {
            bytes = []
            bytes.reserveCapacity(256)
            append(module)
            append(operation)
            if let user {
                bytes.append(1)
                append(user)
            } else {
                bytes.append(0)
            }
            append(request.method.rawValue)
            append(request.urlString)
            for field in request.headers {
                let start = bytes.count
                append(field.name)
                // Field names are ASCII tokens: lower-casing byte by byte is exact.
                for index in (start + 4)..<bytes.count where bytes[index] >= 0x41 && bytes[index] <= 0x5A {
                    bytes[index] |= 0x20
                }
                append(field.value)
            }
            if let body = request.body {
                bytes.append(1)
                appendLength(body.count)
                bytes.append(contentsOf: body)
            } else {
                bytes.append(0)
            }
            var hasher = Hasher()
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
            hash = hasher.finalize()
        }

        private mutating func append(_ text: String) {
            appendLength(text.utf8.count)
            // A native string's bytes are copied at once; others byte by byte.
            let copied: Void? = text.utf8.withContiguousStorageIfAvailable { bytes.append(contentsOf: $0) }
            if copied == nil { bytes.append(contentsOf: text.utf8) }
        }

        private mutating func appendLength(_ count: Int) {
            withUnsafeBytes(of: UInt32(truncatingIfNeeded: count).littleEndian) { bytes.append(contentsOf: $0) }
        }

        static func == (left: Key, right: Key) -> Bool {
            left.hash == right.hash && left.bytes == right.bytes
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(hash)
        }
    }

    /// The acting user of a call: a stable identifier, or `nil` for an anonymous call.
    public typealias UserKey = @Sendable (HTTPRequest, MiddlewareContext) -> String?

    /// How many times a waiter starts a call again after the callers making it were cancelled
    /// before it makes its own, unshared call.
    private static let rounds = 3

    private let userKey: UserKey
    private let flights = Mutex<[Key: Flight]>([:])

    /// Creates the middleware.
    /// - Parameter userKey: Who is acting for a call; ``ActingUser/id`` by default.
    public init(userKey: @escaping UserKey = { _, _ in ActingUser.id }) {
        self.userKey = userKey
    }

    /// The callers waiting on shared calls now (not counting those making them), for tests and
    /// `/metrics`.
    public var waiting: Int {
        flights.withLock { $0.values.reduce(0) { $0 + $1.waiterCount } }
    }

    /// Joins an identical call in flight, or makes one others may join.
    public func intercept(
        _ request: HTTPRequest,
        context: MiddlewareContext,
        next: @Sendable (HTTPRequest, MiddlewareContext) async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        guard context.policy.retry == .idempotent, request.method == .get || request.method == .head else {
            return try await next(request, context)
        }
        let key = Key(
            module: context.module, operation: context.operation, user: userKey(request, context), request: request)
        for _ in 0..<Self.rounds {
            let (flight, leads) = flights.withLock { flights -> (Flight, Bool) in
                if let existing = flights[key] { return (existing, false) }
                let flight = Flight()
                flights[key] = flight
                return (flight, true)
            }
            if leads {
                let result: Result<HTTPResponse, any Error>
                do {
                    result = .success(try await next(request, context))
                } catch {
                    result = .failure(error)
                }
                flights.withLock { flights in
                    if flights[key] === flight { flights.removeValue(forKey: key) }
                }
                flight.finish(result)
                return try result.get()
            }
            let result = try await flight.wait()
            if case .failure(let error) = result, Self.isCancellation(error) {
                continue
            }
            return try result.get()
        }
        return try await next(request, context)
    }

    /// Whether `error` says the call was cancelled (the caller making it went away).
    private static func isCancellation(_ error: any Error) -> Bool {
        switch error {
        case is CancellationError: true
        case let error as TransportError: error.code == .cancelled
        case let error as ServiceError: error.code == .cancelled
        default: false
        }
    }
}
