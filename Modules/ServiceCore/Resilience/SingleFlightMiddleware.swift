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
/// caller's cancellation fails another. The waiters are handed the caller's response with one
/// store of decoded values, so a body is decoded once for all of them
/// (``ServiceClient/send(_:as:atKeyPath:)``), and they go on after the caller that made the call.
public final class SingleFlightMiddleware: Middleware {
    /// What makes two calls identical: module, operation, user, method, URL, header fields (as
    /// given, in order) and body. It holds the call's own values (references, no copy) and a hash
    /// of the URL, the user and the body's size, by which the flight table finds it; a flight's
    /// key is compared in full before a caller joins it. Field names are compared as spelled: two
    /// calls differing only in a name's case are not shared, which is never wrong, only less
    /// thrifty.
    ///
    /// The hash is FNV-1a, seeded per middleware: a few instructions a byte. A collision cannot
    /// be used against the table: a slot holds one flight, and a caller whose key differs from
    /// the flight in its slot makes its own call, unshared.
    struct Key: Equatable, Sendable {
        let module: String
        let operation: String
        let user: String?
        let request: HTTPRequest
        let hash: UInt64

        init(module: String, operation: String, user: String?, request: HTTPRequest, seed: UInt64) {
            self.module = module
            self.operation = operation
            self.user = user
            self.request = request
            var hash = seed
            Self.combine(request.urlString, into: &hash)
            if let user { Self.combine(user, into: &hash) }
            Self.combine(UInt8(truncatingIfNeeded: request.body?.count ?? 0), into: &hash)
            self.hash = hash
        }

        /// The text's UTF-8 bytes, then a separator (`0xFF` never occurs in UTF-8); a native
        /// string's bytes are read in place.
        private static func combine(_ text: String, into hash: inout UInt64) {
            var value = hash
            let done: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
                for byte in bytes { combine(byte, into: &value) }
            }
            if done == nil { for byte in text.utf8 { combine(byte, into: &value) } }
            combine(0xFF, into: &value)
            hash = value
        }

        private static func combine(_ byte: UInt8, into hash: inout UInt64) {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }

        static func == (left: Key, right: Key) -> Bool {
            left.hash == right.hash && left.module == right.module && left.operation == right.operation
                && left.user == right.user && left.request.method == right.request.method
                && left.request.urlString == right.request.urlString && left.request.headers == right.request.headers
                && left.request.body == right.request.body
        }
    }

    /// The acting user of a call: a stable identifier, or `nil` for an anonymous call.
    public typealias UserKey = @Sendable (HTTPRequest, MiddlewareContext) -> String?

    /// How many times a waiter starts a call again after the callers making it were cancelled
    /// before it makes its own, unshared call.
    private static let rounds = 3

    private let userKey: UserKey
    /// The calls in flight, each in the slot its key's hash picks: a table with no probing,
    /// whose collisions only make calls unshared. Sized far beyond the calls one module has in
    /// flight, so that identical calls rarely find their slot taken by another.
    private let flights = Mutex<[Flight?]>(Array(repeating: nil, count: 1 << slotBits))
    private static let slotBits = 10
    /// The FNV-1a offset basis mixed with a random value, so hashes differ between processes.
    private let seed = 0xCBF2_9CE4_8422_2325 ^ UInt64.random(in: 0...UInt64.max)

    /// Creates the middleware.
    /// - Parameter userKey: Who is acting for a call; ``ActingUser/id`` by default.
    public init(userKey: @escaping UserKey = { _, _ in ActingUser.id }) {
        self.userKey = userKey
    }

    /// The callers waiting on shared calls now (not counting those making them), for tests and
    /// `/metrics`.
    public var waiting: Int {
        flights.withLock { $0.reduce(0) { $0 + ($1?.waiterCount ?? 0) } }
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
            module: context.module, operation: context.operation, user: userKey(request, context), request: request,
            seed: seed)
        // The hash's top bits, the best mixed.
        let slot = Int(truncatingIfNeeded: key.hash >> (64 - Self.slotBits))
        for _ in 0..<Self.rounds {
            let flight: Flight
            switch flights.withLock({ Self.join(&$0[slot], key) }) {
            case .alone:
                return try await next(request, context)
            case .leads(let led):
                let result: Result<HTTPResponse, any Error>
                do {
                    result = .success(try await next(request, context))
                } catch {
                    result = .failure(error)
                }
                flights.withLock { Self.leave(&$0[slot], led) }
                return try led.finish(result).get()
            case .joins(let joined):
                flight = joined
            }
            let result = try await flight.wait()
            // The caller that made the call goes on first, with whatever its answer resumed
            // (a screen whose parts are all in): each waiter's own work with the answer queues
            // behind that, not ahead of it.
            await Task.yield()
            if case .failure(let error) = result, Self.isCancellation(error) {
                continue
            }
            return try result.get()
        }
        return try await next(request, context)
    }

    /// What a caller does with its key's slot in the table.
    private enum Role {
        /// Makes the call, which others may join.
        case leads(Flight)
        /// Waits for the identical call in flight.
        case joins(Flight)
        /// Makes the call unshared: another call holds the slot.
        case alone
    }

    /// Joins the flight in the slot when its key is `key`, or fills an empty slot with a new
    /// flight.
    private static func join(_ slot: inout Flight?, _ key: Key) -> Role {
        guard let existing = slot else {
            let flight = Flight(key: key)
            slot = flight
            return .leads(flight)
        }
        return existing.key == key ? .joins(existing) : .alone
    }

    /// Empties the slot when it holds `flight`.
    private static func leave(_ slot: inout Flight?, _ flight: Flight) {
        if slot === flight { slot = nil }
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
