import AppLogging
import EventLoops
import Foundation
import HTTPServer
import HTTPTypes
import ServiceCore

/// Answers one upstream's requests: `GET /metrics` before anything (no signature), then the
/// signature, then the access token when the upstream
/// requires one, then injected faults, then the routes; every problem carries a contract code,
/// and `X-Request-ID` is echoed.
struct UpstreamHandler: Sendable {
    /// The upstream, for log lines: `user`, `feed`, `payment`, or a scripted module's name.
    let name: String
    /// The signature check; `nil` only under `sandbox-upstreams --no-verify` (benchmarks).
    let gate: SignatureGate?
    let faults: FaultInjector
    /// The loops the upstream's server runs on, which time an injected latency.
    let eventLoops: EventLoopGroup
    let router: Router
    let logger: Logger
    /// The Prometheus text of `GET /metrics`; `nil` for the token endpoint, which has none.
    let metrics: (@Sendable () -> String)?
    /// The access-token check of a hand-written upstream: required when the issuer says so.
    var tokens: (issuer: TokenIssuer, service: SandboxService)? = nil

    /// Answers a request.
    func handle(_ request: ServerRequest) async -> ServerResponse {
        // Scrapers cannot sign; the figures are cheap to read and hold no secret.
        if let metrics, request.path == "/metrics", request.method == "GET" {
            return ServerResponse(
                status: 200, headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8"],
                body: Data(metrics().utf8))
        }
        let requestID = request.headers["X-Request-ID"].flatMap { Self.isEchoable($0) ? $0 : nil }
        var response: ServerResponse
        if let gate, let problem = await gate.check(request) {
            logger.notice(
                "refused a request whose signature did not verify",
                metadata: [
                    "upstream": "\(name)", "code": "\(problem.code.name)", "path": "\(request.path)",
                    "request_id": "\(requestID ?? "-")",
                ])
            response = problem.response
        } else if let tokens, tokens.issuer.requiresToken(tokens.service),
            !tokens.issuer.accepts(request.headers["authorization"].flatMap(Self.bearerToken))
        {
            response =
                Problem(
                    .invalidToken, "the request needs a valid access token from the sandbox's token endpoint",
                    headers: [("WWW-Authenticate", "Bearer realm=\"sandbox\", error=\"invalid_token\"")]
                ).response
        } else {
            response = await answer(request)
        }
        if let requestID { response.headers.replaceOrAdd(name: "X-Request-ID", value: requestID) }
        logger.debug(
            "answered",
            metadata: [
                "upstream": "\(name)", "method": "\(request.method)", "path": "\(request.path)",
                "status": "\(response.resetsConnection ? "reset" : String(response.status))",
                "request_id": "\(requestID ?? "-")",
            ])
        return response
    }

    /// The answer to a verified request, faults included.
    private func answer(_ request: ServerRequest) async -> ServerResponse {
        let decision = faults.decide()
        if decision.latency > .zero {
            // On the request's own loop: no other thread wakes for it, and it ends on time.
            try? await eventLoops.sleep(for: decision.latency)
        }
        switch decision.outcome {
        case .reset:
            return .resetConnection
        case .resetAfterProcessing:
            _ = await router.handle(request)
            return .resetConnection
        case .error:
            return Problem(
                .unavailable, "injected error", headers: [("Retry-After", "1"), ("X-Sandbox-Fault", "error")]
            )
            .response
        case .answer:
            return await router.handle(request)
        }
    }

    /// The token of an `Authorization: Bearer` field, or `nil`.
    static func bearerToken(_ field: String) -> String? {
        let parts = field.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return parts[1].trimmingCharacters(in: .whitespaces)
    }

    /// Whether an `X-Request-ID` may be echoed: 1-64 visible ASCII characters.
    static func isEchoable(_ value: String) -> Bool {
        (1...64).contains(value.utf8.count) && value.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }
}
