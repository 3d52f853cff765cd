import HTTPServer

/// The query parameters of an app request, read by ``HTTPServer/RequestQuery`` (`%XX` decoded,
/// `+` taken literally); the first value of a repeated name counts.
struct AppQuery {
    private let query: RequestQuery

    /// - Throws: 400 when the query holds a malformed percent-encoding.
    init(_ raw: String?) throws(AppProblemResponse) {
        do {
            query = try RequestQuery(raw)
        } catch {
            throw AppProblemResponse(problem: AppProblem(400, "The query is not valid: \(error.description)."))
        }
    }

    /// The first non-empty value of `name`.
    subscript(name: String) -> String? {
        query.values(name).first.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `limit`, 1-100, 20 when absent.
    func limit() throws(AppProblemResponse) -> Int {
        guard let text = self["limit"] else { return 20 }
        guard let value = Int(text), (1...100).contains(value) else {
            throw AppProblemResponse(problem: AppProblem(400, "limit must be a whole number from 1 to 100."))
        }
        return value
    }
}
