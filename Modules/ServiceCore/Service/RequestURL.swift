/// Joins a base URL's prefix, a case's encoded path and its query into the request's URL text.
enum RequestURL {
    /// The URL text: `prefix`, a `/` when `path` does not start with one, `path`, then `?` and
    /// the percent-encoded query when `query` has items. The text is reserved at its final size;
    /// the query is encoded into a buffer of its own first.
    /// - Parameters:
    ///   - prefix: The base URL without trailing `/` (``BaseURLValidator/prefix(of:)``).
    ///   - path: The percent-encoded path, already checked with
    ///     ``PercentEncoding/isValidEncodedPath(_:)``.
    ///   - query: The query parameters, unencoded.
    static func join(prefix: String, path: String, query: QueryParameters?) -> String {
        var queryBytes: [UInt8] = []
        let hasQuery = query.map { !$0.isEmpty } ?? false
        if hasQuery, let query {
            queryBytes.reserveCapacity(64)
            query.appendPercentEncodedQuery(to: &queryBytes)
        }
        let slash = !path.isEmpty && path.utf8.first != UInt8(ascii: "/")
        var text = ""
        text.reserveCapacity(prefix.utf8.count + 1 + path.utf8.count + (hasQuery ? 1 + queryBytes.count : 0))
        // Appending strings copies their bytes without checking them again.
        text += prefix
        if slash { text += "/" }
        text += path
        if hasQuery {
            text += "?"
            text += String(decoding: queryBytes, as: UTF8.self)
        }
        return text
    }
}
