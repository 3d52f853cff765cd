import Foundation

/// The query parameters of an app request.
struct AppQuery {
    private var values: [String: String] = [:]

    init(_ query: String?) {
        guard let query else { return }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(parts[0])
            let value = parts.count > 1 ? Self.decode(parts[1]) : ""
            if let name, let value, values[name] == nil { values[name] = value }
        }
    }

    subscript(name: String) -> String? {
        values[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `limit`, 1-100, 20 when absent.
    func limit() throws(AppProblemResponse) -> Int {
        guard let text = self["limit"] else { return 20 }
        guard let value = Int(text), (1...100).contains(value) else {
            throw AppProblemResponse(problem: AppProblem(400, "limit must be a whole number from 1 to 100."))
        }
        return value
    }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
