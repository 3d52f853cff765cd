import HTTPServer
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

    init(authenticator: Authenticator) {
        self.authenticator = authenticator
    }

    /// Adds an authenticated route.
    mutating func add(_ method: String, _ pattern: String, _ handler: @escaping Handler) {
        let authenticator = self.authenticator
        router.add(method, pattern) { request, parameters in
            RequestTrace.current?.matched(pattern)
            switch await authenticator.authenticate(request) {
            case .failure(let problem):
                return problem.response
            case .success(let user):
                do {
                    // The acting user keys shared identical reads (single-flight) to this user.
                    return try await ActingUser.$id.withValue(user) {
                        try await handler(AppCall(request: request, parameters: parameters, user: user))
                    }
                } catch let problem as AppProblemResponse {
                    return problem.response
                } catch {
                    return AppProblem.forUpstream(error).response
                }
            }
        }
    }
}
