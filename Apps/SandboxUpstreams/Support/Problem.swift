import Foundation
import HTTPServer
import HTTPTypes
import JSON
import ServiceCore

/// An RFC 9457 problem answer of the upstream contract: a ``ProblemCode`` and a detail for a
/// person, thrown by request handling and turned into an `application/problem+json` response.
///
/// Details never hold secrets: no tokens, keys or request bodies.
struct Problem: Error, Sendable, CustomStringConvertible {
    /// The code, with its status and title.
    var code: ProblemCode
    /// What happened in this case.
    var detail: String
    /// Extra header fields (`Allow`, `Retry-After`, `Connection`).
    var headers: [(name: String, value: String)] = []

    init(_ code: ProblemCode, _ detail: String, headers: [(name: String, value: String)] = []) {
        self.code = code
        self.detail = detail
        self.headers = headers
    }

    var description: String { "\(code.status) \(code.name): \(detail)" }

    /// The document: `type`, `title`, `status`, `detail`, `code`.
    var details: ProblemDetails {
        ProblemDetails(type: code.type, title: code.title, status: code.status, detail: detail, code: code.name)
    }

    /// The answer: status, `Content-Type: application/problem+json`, the extra fields, the body.
    var response: ServerResponse {
        var fields: ServerHeaders = [:]
        for field in headers { fields.add(name: field.name, value: field.value) }
        return .problem(details, headers: fields)
    }
}
