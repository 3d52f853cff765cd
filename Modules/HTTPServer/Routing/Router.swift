import HTTPTypes

/// Routes requests by method and path pattern to handlers; it is itself a handler.
///
/// Patterns are paths whose segments are literals or `:name` parameters, for example
/// `/v1/users/:id`. The request path is split at `/` before percent-decoding, so
/// `/v1/users/a%2Fb` matches with `id` = `a/b`. A path no route matches gets a 404 problem; a
/// path some route matches with another method gets 405 with `Allow`; a matching path with a
/// malformed percent-encoding gets 400. `HEAD` falls back to `GET`. ``refusalResponder`` shapes
/// those three answers (an API with its own error codes sets it).
///
/// ```swift
/// var router = Router()
/// router.add("GET", "/v1/users/:id") { request, parameters in
///     .json(200, ["id": parameters["id"] ?? ""])
/// }
/// let server = HTTPServer(router: router)
/// ```
public struct Router: Sendable {
    /// Answers one routed request.
    public typealias Handler = @Sendable (ServerRequest, RouteParameters) async -> ServerResponse

    private enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    private struct Route: Sendable {
        let method: String
        let segments: [Segment]
        let handler: Handler
    }

    /// Why the router answers a request itself: no route takes it.
    public enum Refusal: Sendable, Hashable {
        /// A route's pattern matches the path, but a parameter holds a malformed percent-encoding.
        case malformedPath
        /// No route's pattern matches the path.
        case notFound
        /// Routes match the path, but none for the request's method; `allowed` is what goes in
        /// the `Allow` header (`HEAD` included wherever `GET` is).
        case methodNotAllowed(allowed: [String])

        /// The status the refusal answers with: 400, 404 or 405.
        public var status: Int {
            switch self {
            case .malformedPath: 400
            case .notFound: 404
            case .methodNotAllowed: 405
            }
        }

        /// The problem's stable `code`: `invalid_request`, `not_found` or `method_not_allowed`.
        public var code: String {
            switch self {
            case .malformedPath: "invalid_request"
            case .notFound: "not_found"
            case .methodNotAllowed: "method_not_allowed"
            }
        }

        /// The problem's `detail` for a request with `method`.
        public func detail(method: String) -> String {
            switch self {
            case .malformedPath: "The path holds a malformed percent-encoding."
            case .notFound: "No resource at this path."
            case .methodNotAllowed: "This resource does not support \(method); see the Allow header."
            }
        }

        /// The `Allow` header's value for a 405; `nil` otherwise.
        public var allowHeader: String? {
            guard case .methodNotAllowed(let allowed) = self else { return nil }
            return allowed.joined(separator: ", ")
        }
    }

    /// Answers a request no route takes.
    public typealias RefusalResponder = @Sendable (Refusal, ServerRequest) -> ServerResponse

    private var routes: [Route] = []

    /// Answers the requests no route takes; by default ``defaultRefusal(_:for:)``.
    public var refusalResponder: RefusalResponder = Router.defaultRefusal

    /// Creates a router with no routes.
    public init() {}

    /// An RFC 9457 problem with the refusal's status, detail and code, and `Allow` on a 405.
    public static func defaultRefusal(_ refusal: Refusal, for request: ServerRequest) -> ServerResponse {
        var response = ServerResponse.problem(
            ProblemDetails(status: refusal.status, detail: refusal.detail(method: request.method), code: refusal.code))
        if let allow = refusal.allowHeader { response.headers.add(name: "Allow", value: allow) }
        return response
    }

    /// Adds a route; earlier routes win when two match.
    /// - Parameters:
    ///   - method: The method, for example `GET` (compared exactly; methods are case-sensitive).
    ///   - pattern: The path pattern, for example `/v1/users/:id`.
    ///   - handler: Answers matching requests.
    public mutating func add(_ method: String, _ pattern: String, handler: @escaping Handler) {
        let segments = Self.split(Substring(pattern)).map { part -> Segment in
            part.hasPrefix(":") ? .parameter(String(part.dropFirst())) : .literal(String(part))
        }
        routes.append(Route(method: method, segments: segments, handler: handler))
    }

    /// Answers `request` with the first matching route, or through ``refusalResponder`` (a 400,
    /// 404 or 405 problem by default).
    ///
    /// It runs on the caller's executor (the server's handler task, on its loop), so it costs no
    /// hop on entry.
    nonisolated(nonsending) public func handle(_ request: ServerRequest) async -> ServerResponse {
        let parts = Self.split(Substring(request.path))
        var allowed: [String] = []
        var getMatch: (Route, RouteParameters)?
        for route in routes where route.segments.count == parts.count {
            guard let parameters = Self.match(route.segments, parts) else { continue }
            guard let parameters = parameters else { return refusalResponder(.malformedPath, request) }
            if route.method == request.method { return await route.handler(request, parameters) }
            if route.method == "GET" && request.method == "HEAD" && getMatch == nil { getMatch = (route, parameters) }
            if !allowed.contains(route.method) { allowed.append(route.method) }
        }
        if let (route, parameters) = getMatch { return await route.handler(request, parameters) }
        guard !allowed.isEmpty else { return refusalResponder(.notFound, request) }
        if allowed.contains("GET") && !allowed.contains("HEAD") { allowed.append("HEAD") }
        return refusalResponder(.methodNotAllowed(allowed: allowed), request)
    }

    /// Splits a path at `/`, dropping the leading one: `/a/b` gives `["a", "b"]`, `/` gives `[""]`.
    ///
    /// The array is sized before it is filled (`split(separator:)` grows it two or three times on
    /// every request).
    private static func split(_ path: Substring) -> [Substring] {
        // The first byte, not the first character: `/` and a combining mark after it are one character.
        let trimmed = path.utf8.first == UInt8(ascii: "/") ? Substring(path.utf8.dropFirst()) : path
        let utf8 = trimmed.utf8
        var parts: [Substring] = []
        parts.reserveCapacity(utf8.count(where: { $0 == UInt8(ascii: "/") }) + 1)
        var start = utf8.startIndex
        var index = start
        while index != utf8.endIndex {
            if utf8[index] == UInt8(ascii: "/") {
                parts.append(trimmed[start..<index])
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        parts.append(trimmed[start..<utf8.endIndex])
        return parts
    }

    /// `nil` when the route does not match; `.some(nil)` when it matches but a parameter is malformed.
    private static func match(_ segments: [Segment], _ parts: [Substring]) -> RouteParameters?? {
        var pairs: [(name: String, value: String)] = []
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal(let literal):
                guard part == literal || PercentEncoding.decode(part) == literal else { return nil }
            case .parameter(let name):
                guard !part.isEmpty else { return nil }
                guard let value = PercentEncoding.decode(part) else { return .some(nil) }
                pairs.append((name, value))
            }
        }
        return .some(RouteParameters(pairs))
    }
}
