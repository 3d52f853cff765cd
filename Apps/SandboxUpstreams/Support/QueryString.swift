import HTTPServer

/// A request's query as the contract reads it (``HTTPServer/RequestQuery``: `%XX` is decoded,
/// `+` is taken literally), with its failures as 400 `invalid_request` problems.
struct QueryString {
    private let query: RequestQuery

    /// Splits and decodes a raw query (without `?`).
    /// - Throws: 400 `invalid_request` for a malformed escape or text that is not UTF-8.
    init(_ raw: String?) throws(Problem) {
        do {
            query = try RequestQuery(raw)
        } catch {
            throw Problem(.invalidRequest, error.description)
        }
    }

    /// The only value of `name`, `nil` when absent.
    /// - Throws: 400 `invalid_request` when the parameter is repeated.
    func single(_ name: String) throws(Problem) -> String? {
        do {
            return try query.single(name)
        } catch {
            throw Problem(.invalidRequest, error.description)
        }
    }
}
