import Synchronization
import UserModule

/// The introspection calls in flight, one per token: concurrent requests with the same uncached
/// token share one call instead of each making its own.
///
/// The first request makes the call itself (on its own network thread); the others wait for its
/// result. A waiter that is cancelled affects nobody else; when the request making the call is
/// cancelled, its waiters start over and one of them makes the call. A call is forgotten as
/// soon as it ends, so a failure is never remembered: the next request with the token calls again.
final class IntrospectionFlights: Sendable {
    /// How one call ended, as its waiters see it.
    private enum Outcome: Sendable {
        case done(Result<TokenIntrospection, any Error>)
        /// The request making the call was cancelled: the waiters start over.
        case abandoned
    }

    /// One call and the requests waiting for it.
    private final class Flight: Sendable {
        private let state = Mutex<(outcome: Outcome?, waiters: [CheckedContinuation<Outcome, Never>])>((nil, []))

        func finish(_ outcome: Outcome) {
            let waiters = state.withLock { state in
                state.outcome = outcome
                defer { state.waiters.removeAll() }
                return state.waiters
            }
            for waiter in waiters { waiter.resume(returning: outcome) }
        }

        func wait() async -> Outcome {
            await withCheckedContinuation { continuation in
                let outcome = state.withLock { state in
                    if state.outcome == nil { state.waiters.append(continuation) }
                    return state.outcome
                }
                if let outcome { continuation.resume(returning: outcome) }
            }
        }
    }

    private let flights = Mutex<[String: Flight]>([:])

    /// The number of tokens being introspected now.
    var count: Int { flights.withLock { $0.count } }

    /// The result of the introspection of `token`: the call in flight for it, or a new one made
    /// with `introspect`.
    func introspection(
        of token: String,
        _ introspect: @Sendable () async throws -> TokenIntrospection
    ) async -> Result<TokenIntrospection, any Error> {
        // A few rounds at most: each further round needs the request making the call to be cancelled.
        for _ in 0..<4 {
            let (flight, leads) = flights.withLock { flights in
                if let running = flights[token] { return (running, false) }
                let flight = Flight()
                flights[token] = flight
                return (flight, true)
            }
            guard leads else {
                if case .done(let result) = await flight.wait() { return result }
                continue
            }
            let result: Result<TokenIntrospection, any Error>
            do {
                result = .success(try await introspect())
            } catch {
                result = .failure(error)
            }
            _ = flights.withLock { $0.removeValue(forKey: token) }
            // A call that failed because this request was cancelled says nothing about the token.
            if case .failure = result, Task.isCancelled {
                flight.finish(.abandoned)
            } else {
                flight.finish(.done(result))
            }
            return result
        }
        do {
            return .success(try await introspect())
        } catch {
            return .failure(error)
        }
    }
}
