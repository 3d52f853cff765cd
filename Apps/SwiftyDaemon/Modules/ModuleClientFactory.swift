import AppLogging
import CurlTransport
import HTTP1Transport
import RequestSigning
import ServiceCore
import URLSessionTransport

/// Makes each feature module's `ServiceClient` from its binding: base URL, transport, and the
/// daemon's middleware stack around the module's ``ResilienceStack``.
///
/// The chain, outermost first: the call's metrics and trace, single-flight, deadline,
/// concurrency limit, retry with its budget, failover and breaker, the attempt's metrics, request
/// id, the module's attempt timeout, credentials, signing with the module's own key (innermost,
/// so every attempt is signed afresh), then the overrides' `afterSigning`. Every client of one
/// module shares one stack: one budget, one breaker per host, one limit.
struct ModuleClientFactory {
    let bindings: [String: UpstreamBinding]
    let curl: OnDemandCurlTransport?
    let http1: HTTP1Transport?
    let urlSession: URLSessionTransport?
    let metrics: Metrics
    let logger: Logger
    let overrides: DaemonOverrides
    /// The modules' bearer-credential middlewares (renewed before they expire), placed just
    /// outside signing; none by default.
    var credentials: CredentialMiddlewares? = nil
    /// Each module's resilience stack, made on first use.
    let stacks = ResilienceStacks()

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
        let stack = stacks.stack(for: binding, metrics: metrics, logger: logger)
        // Built from the stack's parts rather than `stack.middlewares(...)`: the request id goes
        // inside single-flight (it differs per app request, and would keep identical reads apart)
        // and the attempt's metrics inside the retries.
        let chain: [(any Middleware)?] = [
            UpstreamCallRecorder(metrics: metrics),
            stack.singleFlight,
            stack.deadline,
            stack.concurrencyLimit,
            stack.retry,
            stack.failover,
            UpstreamAttemptRecorder(metrics: metrics),
            RequestIDMiddleware(),
            UpstreamTimeoutMiddleware(timeout: binding.timeout),
        ]
        let credentials = self.credentials?.middleware(for: module, transport: transport) ?? []
        return try ServiceClient<S>(
            baseURL: binding.baseURL,
            transport: transport,
            middlewares: chain.compactMap { $0 } + credentials
                + [SigningMiddleware(signer: try RequestSigner(key: binding.key))]
                + (overrides.afterSigning[module] ?? []),
            configuration: ServiceClientConfiguration(
                logger: logger,
                requestIDGenerator: { RequestTrace.current?.requestID ?? RequestID.random() }
            )
        )
    }
}
