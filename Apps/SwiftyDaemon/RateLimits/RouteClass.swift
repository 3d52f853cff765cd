/// The classes of app routes that rate limits are configured for.
enum RouteClass: String, Sendable, CaseIterable {
    /// Routes that read (`GET`, `HEAD`).
    case reads
    /// Routes that change state, other than payments.
    case writes
    /// Routes that move money.
    case payments

    /// The class of a route with `method`, unless the route names one.
    static func of(method: String) -> RouteClass {
        method == "GET" || method == "HEAD" ? .reads : .writes
    }
}
