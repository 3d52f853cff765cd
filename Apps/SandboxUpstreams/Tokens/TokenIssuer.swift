import Foundation
import Synchronization

/// The sandbox's OAuth 2.0 authorization server state: the registered clients, the access tokens
/// issued and when each expires, which upstreams require one, and counters for tests.
final class TokenIssuer: Sendable {
    private struct State {
        var clients: [String: String]
        var lifetime: Duration
        var tokens: [String: Date] = [:]
        var counts = TokenEndpointCounts()
    }

    private let state: Mutex<State>
    /// One bit per service (its index in `allCases`) that requires a token: read on every
    /// upstream request, so an atomic rather than the lock the upstreams would contend on.
    private let required: Atomic<UInt8>
    private let clock: @Sendable () -> Date

    init(
        clients: [String: String], lifetime: Duration, required: Set<SandboxService>,
        clock: @escaping @Sendable () -> Date
    ) {
        state = Mutex(State(clients: clients, lifetime: lifetime))
        self.required = Atomic(required.reduce(0) { $0 | Self.bit($1) })
        self.clock = clock
    }

    /// The counters so far.
    var counts: TokenEndpointCounts { state.withLock { $0.counts } }

    /// Counts one request to the token endpoint.
    func countRequest() {
        state.withLock { $0.counts.requests += 1 }
    }

    /// Registers a client, or changes its secret.
    func register(clientID: String, secret: String) {
        state.withLock { $0.clients[clientID] = secret }
    }

    /// The lifetime of the tokens issued from now on.
    var lifetime: Duration {
        get { state.withLock { $0.lifetime } }
        set { state.withLock { $0.lifetime = newValue } }
    }

    private static func bit(_ service: SandboxService) -> UInt8 {
        UInt8(1) << UInt8(SandboxService.allCases.firstIndex(of: service) ?? 0)
    }

    /// Whether `service` accepts only requests with a valid access token.
    func requiresToken(_ service: SandboxService) -> Bool {
        required.load(ordering: .relaxed) & Self.bit(service) != 0
    }

    /// Makes `service` require an access token, or stop requiring one.
    func setRequired(_ required: Bool, for service: SandboxService) {
        if required {
            self.required.bitwiseOr(Self.bit(service), ordering: .relaxed)
        } else {
            self.required.bitwiseAnd(~Self.bit(service), ordering: .relaxed)
        }
    }

    /// Whether the client's credentials match a registered client, compared without an early exit.
    func authenticates(clientID: String, secret: String) -> Bool {
        guard let expected = state.withLock({ $0.clients[clientID] }) else { return false }
        let given = Array(secret.utf8)
        let wanted = Array(expected.utf8)
        guard given.count == wanted.count else { return false }
        return zip(given, wanted).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// Issues a new token; returns it with its lifetime.
    func issue() -> (token: String, lifetime: Duration) {
        var bytes = [UInt8](repeating: 0, count: 24)
        var generator = SystemRandomNumberGenerator()
        for index in bytes.indices { bytes[index] = generator.next() }
        let token =
            "sbx_"
            + Data(bytes).base64EncodedString().replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "=", with: "")
        let now = clock()
        return state.withLock { state in
            let seconds =
                Double(state.lifetime.components.seconds)
                + Double(state.lifetime.components.attoseconds) / 1e18
            // Forget expired tokens so the table stays as small as the live ones.
            state.tokens = state.tokens.filter { $0.value > now }
            state.tokens[token] = now + seconds
            state.counts.issued += 1
            return (token, state.lifetime)
        }
    }

    /// Whether `token` was issued and has not expired or been revoked; a refusal is counted.
    func accepts(_ token: String?) -> Bool {
        let now = clock()
        return state.withLock { state in
            let valid = token.flatMap { state.tokens[$0] }.map { $0 > now } ?? false
            if !valid { state.counts.rejected += 1 }
            return valid
        }
    }

    /// Revokes every token issued so far.
    func revokeAll() {
        state.withLock { $0.tokens.removeAll() }
    }
}
