import HTTPServer
import JSON
import ServiceCore

/// Builders for the app API's success answers.
enum AppAnswer {
    private static let encoder = StreamingJSONEncoder()

    /// A 200 JSON answer.
    static func json(_ value: some Encodable) -> ServerResponse {
        json(200, value)
    }

    /// A JSON answer with `status`; a 500 problem if the value cannot be encoded.
    static func json(_ status: Int, _ value: some Encodable) -> ServerResponse {
        do {
            return .json(status, data: try encoder.encode(value))
        } catch {
            return AppProblem(500, "The answer could not be encoded.", code: "internal_error").response
        }
    }
}
