import Foundation
import HTTPServer
import RequestSigning
import ServiceCore

/// Verifies the RFC 9421 signature of every request an upstream receives, with a key ring that
/// holds only its module's keys, and turns a failure into the contract's 401 problem.
struct SignatureGate: Sendable {
    /// The verifier's checks: the default required components (`@method`, `@authority`,
    /// `@path`, `@query`, and `content-digest` for bodies), 30 s of clock skew, and a maximum
    /// age of twice the skew, which is also how long the daemon's signatures live: a signer
    /// whose clock is a skew behind still gets through, and the replay window (91 s) is as
    /// short as that allows.
    static let verifierConfiguration = SignatureVerifier.Configuration(
        maximumAge: .seconds(60), allowedClockSkew: .seconds(30))

    /// The verifiers in use: the module's keys with ``verifierConfiguration`` and the replay
    /// guard, and the same with the upstream's own nonces for reads while a shared replay store
    /// cannot be asked; ``verifier(trusting:)`` and ``SwappableVerifier/install(_:)`` replace
    /// the keys of both.
    let verifiers: SwappableVerifier
    /// Where failed checks of the replay store are counted.
    let metrics: SandboxMetrics?

    /// The verifier in use now.
    var verifier: SignatureVerifier { verifiers.current.main }

    /// Creates a gate for one module's key.
    /// - Parameters:
    ///   - replayGuard: Where nonces are remembered.
    ///   - outageGuard: For a shared `replayGuard` (Redis), the upstream's own guard that reads
    ///     are checked against while the shared one cannot be asked, so reads go on during an
    ///     outage; writes are refused then (503 `replay_store_unavailable`).
    init(
        key: SigningKey,
        replayGuard: any ReplayGuard = InMemoryReplayGuard(),
        outageGuard: InMemoryReplayGuard? = nil,
        metrics: SandboxMetrics? = nil,
        clock: @escaping @Sendable () -> Date
    ) throws(SigningError) {
        let keyRing = try KeyRing([key])
        let main = SignatureVerifier(
            keyRing: keyRing, configuration: Self.verifierConfiguration, replayGuard: replayGuard, clock: clock)
        let outage = outageGuard.map {
            SignatureVerifier(
                keyRing: keyRing, configuration: Self.verifierConfiguration, replayGuard: $0, clock: clock)
        }
        verifiers = SwappableVerifier(SwappableVerifier.Verifiers(main: main, outage: outage), clock: clock)
        self.metrics = metrics
    }

    /// Verifiers trusting exactly `keys`, with this gate's settings and replay guards, for
    /// ``SwappableVerifier/install(_:)``.
    /// - Throws: ``SigningError`` when the keys cannot form a key ring (two with one id).
    func verifier(trusting keys: [SigningKey]) throws(SigningError) -> SwappableVerifier.Verifiers {
        verifiers.verifiers(trusting: try KeyRing(keys))
    }

    /// The message as the verifier sees it: method, scheme `http`, the raw target, the `Host`
    /// field as authority, the header fields in order, the body.
    static func message(for request: ServerRequest) throws(SigningError) -> SignableMessage {
        try SignableMessage(
            method: request.method, scheme: "http", requestTarget: request.target, headers: request.headers,
            body: request.body.isEmpty ? nil : request.body)
    }

    /// Verifies the request; `nil` when it is signed correctly, else the problem to answer.
    func check(_ request: ServerRequest) async -> Problem? {
        let message: SignableMessage
        do {
            message = try Self.message(for: request)
        } catch {
            return Problem(.signatureInvalid, "the request cannot be verified: \(error.message)")
        }
        let current = verifiers.current
        do {
            _ = try await current.main.verify(message)
            return nil
        } catch {
            guard error.code == .replayStoreUnavailable else { return Self.problem(for: error) }
            metrics?.countReplayRedisError()
            // A replayed read changes nothing; a replayed write could, so writes fail closed.
            guard let outageVerifier = current.outage, Self.isRead(request) else {
                return Self.problem(for: error)
            }
            do {
                _ = try await outageVerifier.verify(message)
                return nil
            } catch {
                return Self.problem(for: error)
            }
        }
    }

    /// Whether a request only reads: `GET`, `HEAD`, and token introspection (`POST
    /// /v1/sessions/introspect`, the contract's one read sent as a POST, which the daemon sends
    /// for every request while its token cache is out).
    static func isRead(_ request: ServerRequest) -> Bool {
        request.method == "GET" || request.method == "HEAD"
            || (request.method == "POST" && request.path == "/v1/sessions/introspect")
    }

    /// The problem for a verifier failure (`docs/upstreams.md` section 1.3); the detail is the
    /// verifier's explanation, which names the check and never holds key material.
    static func problem(for error: SignatureVerificationError) -> Problem {
        let detail = "signature check failed: \(error.description)"
        switch error.code {
        case .missingSignature, .missingParameter, .missingComponent:
            return Problem(.signatureMissing, detail)
        case .createdInFuture, .tooOld, .expired:
            return Problem(.signatureExpired, detail)
        case .replayedNonce:
            return Problem(.signatureReplayed, detail)
        case .unknownKey:
            return Problem(.keyUnknown, detail)
        case .tagMismatch:
            return Problem(.tagMismatch, detail)
        case .digestMismatch:
            return Problem(.digestMismatch, detail)
        case .replayGuardFull:
            return Problem(.unavailable, detail, headers: [("Retry-After", "1")])
        case .replayStoreUnavailable:
            // The nonce could not be checked: refused, never accepted unchecked. The detail names
            // the store (its address, never its credentials).
            return Problem(.replayStoreUnavailable, detail, headers: [("Retry-After", "1")])
        case .cryptoFailure:
            return Problem(.internalError, detail)
        default:
            return Problem(.signatureInvalid, detail)
        }
    }
}
