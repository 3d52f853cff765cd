import Foundation
import HTTPServer
import HTTPTypes
import JSON
import ServiceCore

/// Builds a ``HTTPServer/Router`` whose handlers may throw a ``Problem``, which becomes the
/// answer.
struct RouteTable {
    /// A handler that answers or throws the problem to answer with.
    typealias Handler = @Sendable (ServerRequest, RouteParameters) async throws(Problem) -> ServerResponse

    /// The routes so far; what no route takes is refused with a contract code
    /// (``refusal(_:for:)``).
    private(set) var router: Router = {
        var router = Router()
        router.refusalResponder = RouteTable.refusal
        return router
    }()

    /// The router's own answers with their contract codes: `invalid_request` (a malformed path),
    /// `not_found`, `method_not_allowed` (with `Allow`).
    static func refusal(_ refusal: Router.Refusal, for request: ServerRequest) -> ServerResponse {
        let code: ProblemCode =
            switch refusal {
            case .malformedPath: .invalidRequest
            case .notFound: .notFound
            case .methodNotAllowed: .methodNotAllowed
            }
        let headers = refusal.allowHeader.map { [(name: "Allow", value: $0)] } ?? []
        return Problem(code, refusal.detail(method: request.method), headers: headers).response
    }

    /// Adds a route.
    mutating func add(_ method: String, _ pattern: String, _ handler: @escaping Handler) {
        router.add(method, pattern) { request, parameters in
            do throws(Problem) {
                return try await handler(request, parameters)
            } catch {
                return error.response
            }
        }
    }
}

extension RouteParameters {
    /// The decoded parameter `name`, checked as an identifier (400 when it is not one).
    /// - Parameters:
    ///   - name: The pattern's parameter name.
    ///   - field: How to name it in an error.
    func identifier(_ name: String, field: String? = nil) throws(Problem) -> String {
        let value = self[name] ?? ""
        try InputRules.identifier(value, named: field ?? name)
        return value
    }
}

/// Builders for success answers.
enum Answer {
    /// A JSON answer; a 500 `internal_error` problem if the value cannot be encoded.
    static func json(_ status: Int, _ value: some Encodable) -> ServerResponse {
        guard let body = try? SortedKeysJSONEncoder().encode(value) else {
            return Problem(.internalError, "the answer could not be encoded").response
        }
        return ServerResponse(status: status, headers: ["Content-Type": "application/json"], body: body)
    }

    /// A 201 JSON answer with `Location` naming the created resource.
    static func created(_ value: some Encodable, location: String) -> ServerResponse {
        var response = json(201, value)
        if response.status == 201 { response.headers.add(name: "Location", value: location) }
        return response
    }

    /// An empty 204 answer.
    static var noContent: ServerResponse { ServerResponse(status: 204) }
}
