import HTTPServer
import HTTPTypes
import ServiceCore

/// Reads request bodies under the contract's media types and limits.
enum RequestBody {
    /// The largest JSON body: 64 KiB.
    static let maximumJSONBytes = 64 * 1024
    /// The largest `multipart/form-data` body: 21 MiB (4 files of 5 MiB plus the fields).
    static let maximumMultipartBytes = 21 * 1024 * 1024

    /// The request's media type, or a 415 problem when it has none or an unreadable one.
    static func mediaType(of request: ServerRequest) throws(Problem) -> MediaType {
        guard let field = request.headers["Content-Type"] else {
            throw Problem(.unsupportedMediaType, "the body has no Content-Type; send application/json")
        }
        guard let type = MediaType(field) else {
            throw Problem(.unsupportedMediaType, "the Content-Type is not a valid media type")
        }
        return type
    }

    /// The body as JSON: `application/json`, at most 64 KiB, well formed.
    /// - Throws: ``Problem``: 400 (no body, malformed), 413 (too large), 415 (another type).
    static func json(_ request: ServerRequest) throws(Problem) -> JSONValue {
        guard !request.body.isEmpty else { throw Problem(.invalidRequest, "a JSON body is required") }
        let type = try mediaType(of: request)
        guard type.essence == "application/json" else {
            throw Problem(.unsupportedMediaType, "the body is \(type.essence); send application/json")
        }
        try checkJSONSize(request)
        return try parse(request)
    }

    /// Parses a JSON body already known to be `application/json` and small enough.
    static func parse(_ request: ServerRequest) throws(Problem) -> JSONValue {
        do {
            return try JSONParser.parse(request.body)
        } catch {
            throw Problem(.invalidRequest, "the body is not valid JSON: \(error)")
        }
    }

    /// A 413 problem when the body is over the JSON limit.
    static func checkJSONSize(_ request: ServerRequest) throws(Problem) {
        guard request.body.count <= maximumJSONBytes else {
            throw Problem(
                .bodyTooLarge,
                "the JSON body is \(request.body.count) bytes; at most \(maximumJSONBytes) are accepted")
        }
    }
}
