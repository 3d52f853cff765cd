public import HTTPTypes
import Synchronization

/// Puts a bearer credential on every request of a module and keeps it fresh.
///
/// The credential is fetched once and shared by every call; it is renewed when less than
/// ``renewBefore`` of its lifetime is left. On a 401 it is renewed once — concurrent callers
/// wait for that one renewal — and the request is replayed once with the new credential. A
/// failed renewal fails the calls waiting on it with a
/// ``ServiceError/Code-swift.struct/credentialRefreshFailed`` error; nothing is tried again
/// within the call, so a broken token endpoint never causes a loop.
public final class CredentialRefreshMiddleware: Middleware {
    /// A credential with its expiry on the clock and a generation number.
    private struct Stored: Sendable {
        var token: String
        var expires: Duration?
        var generation: Int
    }

    /// A credential to use now, or the renewal to wait for.
    private enum Lookup: Sendable {
        case ready(Stored)
        case wait(Task<Stored, any Error>)
    }

    private struct State: Sendable {
        var current: Stored?
        var renewal: Task<Stored, any Error>?
        var generation = 0
    }

    /// How long before expiry a credential is renewed.
    public let renewBefore: Duration
    private let source: any CredentialSource
    private let clock: any ResilienceClock
    private let state = Mutex(State())

    /// Creates the middleware.
    /// - Parameters:
    ///   - source: Where credentials come from.
    ///   - renewBefore: Renew when less than this is left; 30 s by default, more than a call's
    ///     timeout so a credential never expires mid-call.
    ///   - clock: The time source.
    public init(
        source: any CredentialSource,
        renewBefore: Duration = .seconds(30),
        clock: any ResilienceClock = MonotonicClock()
    ) {
        self.source = source
        self.renewBefore = renewBefore
        self.clock = clock
    }

    /// Sends the request with the credential; on 401 renews once and replays once.
    public func intercept(
        _ request: HTTPRequest,
        context: MiddlewareContext,
        next: @Sendable (HTTPRequest, MiddlewareContext) async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        let used = try await credential(replacing: nil, context: context)
        var request = request
        request.headers.replaceOrAdd(name: "Authorization", value: "Bearer \(used.token)")
        let response = try await next(request, context)
        guard response.status == 401 else { return response }
        let renewed = try await credential(replacing: used.generation, context: context)
        request.headers.replaceOrAdd(name: "Authorization", value: "Bearer \(renewed.token)")
        return try await next(request, context)
    }

    /// The current credential, renewed first when it is missing, about to expire, or the one of
    /// generation `stale` (rejected by the upstream). Concurrent callers share one renewal.
    private func credential(replacing stale: Int?, context: MiddlewareContext) async throws -> Stored {
        let now = clock.now
        let renewal = state.withLock { state -> Lookup in
            if let current = state.current, current.generation != stale,
                current.expires.map({ $0 - now > renewBefore }) ?? true
            {
                return .ready(current)
            }
            if let renewal = state.renewal { return .wait(renewal) }
            state.generation += 1
            let generation = state.generation
            let task = Task { [source, clock] in
                do {
                    let started = clock.now
                    let credential = try await source.fetchCredential()
                    let stored = Stored(
                        token: credential.token,
                        expires: credential.lifetime.map { started + $0 },
                        generation: generation
                    )
                    self.state.withLock {
                        $0.current = stored
                        $0.renewal = nil
                    }
                    return stored
                } catch {
                    self.state.withLock { $0.renewal = nil }
                    throw error
                }
            }
            state.renewal = task
            return .wait(task)
        }
        switch renewal {
        case .ready(let stored):
            return stored
        case .wait(let task):
            do {
                return try await task.value
            } catch {
                throw ServiceError(
                    code: .credentialRefreshFailed,
                    module: context.module,
                    operation: context.operation,
                    message: "the bearer credential could not be renewed: \(error)",
                    underlying: error
                )
            }
        }
    }
}
