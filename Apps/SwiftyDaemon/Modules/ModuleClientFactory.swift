import AppLogging
import CurlTransport
import HTTP1Transport
import RequestSigning
import ServiceCore
import URLSessionTransport

/// Makes each feature module's `ServiceClient` from its binding: base URL, transport, and the
/// daemon's middleware stack (metrics and trace, request id, timeout, signing with the module's
/// own key).
struct ModuleClientFactory {
    let bindings: [String: UpstreamBinding]
    let curl: CurlTransport?
    let http1: HTTP1Transport?
    let urlSession: URLSessionTransport?
    let metrics: Metrics
    let logger: Logger
    let overrides: DaemonOverrides
    /// The modules' bearer-credential middlewares, placed just outside signing.
    var credentials: CredentialMiddlewares? = nil

    func client<S: Service>(_ service: S.Type, _ module: String) throws -> ServiceClient<S> {
        guard let binding = bindings[module] else {
            throw ConfigurationProblems(problems: ["modules.\(module) has no binding"])
        }
        let configured: (any Transport)? =
            switch binding.transportInUse {
            case .curl: curl
            case .http1: http1
            case .urlsession: urlSession
            case .auto: nil  // resolved by `transportInUse`
            }
        guard let transport = overrides.transports[module] ?? configured else {
            throw ConfigurationProblems(problems: [
                "modules.\(module): the \(binding.transportInUse) transport is not running"
            ])
        }
        return try ServiceClient<S>(
            baseURL: binding.baseURL,
            transport: transport,
            middlewares: [
                UpstreamCallRecorder(metrics: metrics),
                RequestIDMiddleware(),
                UpstreamTimeoutMiddleware(timeout: binding.timeout),
            ] + (credentials?.middleware(for: module, transport: transport) ?? []) + [
                SigningMiddleware(signer: try RequestSigner(key: binding.key))
            ] + (overrides.afterSigning[module] ?? []),
            configuration: ServiceClientConfiguration(
                logger: logger,
                requestIDGenerator: { RequestTrace.current?.requestID ?? RequestID.random() }
            )
        )
    }
}
