import HTTPServer

/// One authenticated app request, as a route's handler gets it.
struct AppCall: Sendable {
    /// The request.
    let request: ServerRequest
    /// The values of the route pattern's `:name` segments, percent-decoded.
    let parameters: RouteParameters
    /// The authenticated user's id.
    let user: String
}
