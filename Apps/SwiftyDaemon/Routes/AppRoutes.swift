import HTTPServer
import HTTPTypes
import ServiceCore

/// The app API's routes as the route groups add them: every route names its pattern in the
/// request's trace (for metrics and the access log), authenticates the caller, and turns a
/// thrown error into a problem answer.
struct AppRoutes {
    /// Answers one authenticated request, or throws an ``AppProblemResponse`` (answered as is)
    /// or a module's error (mapped by ``AppProblem/forUpstream(_:)``).
    typealias Handler = @Sendable (AppCall) async throws -> ServerResponse

    /// Checks every request's bearer token.
    let authenticator: Authenticator
    /// The routes added so far.
    private(set) var router = Router()
    /// The method and pattern of every route added, in order (checked against the OpenAPI document).
    private(set) var declared: [(method: String, pattern: String)] = []

    /// Counts requests against the configured rate limits; `nil` for none.
    let rateLimiter: RateLimiter?
    /// The proxies whose `Forwarded` / `X-Forwarded-For` give the client's address (``ClientAddress``).
    let trustedProxies: Set<String>

    init(authenticator: Authenticator, rateLimiter: RateLimiter? = nil, trustedProxies: Set<String> = []) {
        self.authenticator = authenticator
        self.rateLimiter = rateLimiter
        self.trustedProxies = trustedProxies
    }

    /// Adds an authenticated route.
    /// - Parameters:
    ///   - routeClass: The class its rate limits are counted in; by default reads for `GET` and
    ///     `HEAD`, writes for the rest.
    mutating func add(
        _ method: String, _ pattern: String, class routeClass: RouteClass? = nil, _ handler: @escaping Handler
    ) {
        let authenticator = self.authenticator
        let routeClass = routeClass ?? RouteClass.of(method: method)
        // No limiter at all on the path of a class without limits.
        let limiter = rateLimiter.flatMap { $0.limits(routeClass) ? $0 : nil }
        let trustedProxies = self.trustedProxies
        declared.append((method, pattern))
        router.add(method, pattern) { request, parameters in
            RequestTrace.current?.matched(pattern)
            var fields: [(String, String)] = []
            if let limiter {
                // Before the token is checked, so that a flood of made-up tokens is limited too.
                let address = ClientAddress.resolve(
                    peer: request.remoteAddress, headers: request.headers, trusted: trustedProxies)
                switch await limiter.check(routeClass, address: address) {
                case .refused(let refusal): return refusal.response
                case .allowed(let given): fields += given
                }
            }
            switch await authenticator.authenticate(request) {
            case .failure(let problem):
                return problem.response
            case .success(let user):
                if let limiter {
                    switch await limiter.check(routeClass, user: user) {
                    case .refused(let refusal): return refusal.response
                    case .allowed(let given): fields += given
                    }
                }
                var response: ServerResponse
                do {
                    // The acting user keys shared identical reads (single-flight) to this user.
                    response = try await ActingUser.$id.withValue(user) {
                        try await handler(AppCall(request: request, parameters: parameters, user: user))
                    }
                } catch let problem as AppProblemResponse {
                    response = problem.response
                } catch {
                    response = AppProblem.forUpstream(error).response
                }
                for (name, value) in fields { response.headers.add(name: name, value: value) }
                return response
            }
        }
    }
}
