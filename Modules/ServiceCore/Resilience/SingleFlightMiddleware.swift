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
    private struct Key: Hashable, Sendable {
        var module: String
        var operation: String
        var user: String?
        var method: String
        var url: String
        var headers: [String]
        var body: Data?
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
            module: context.module,
            operation: context.operation,
            user: userKey(request, context),
            method: request.method.rawValue,
            url: request.urlString,
            headers: request.headers.map { "\($0.name.lowercased()):\($0.value)" },
            body: request.body
        )
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
