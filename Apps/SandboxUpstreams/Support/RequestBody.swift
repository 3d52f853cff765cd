import Foundation
import HTTPServer
import HTTPTypes
import JSON
import ServiceCore

/// Reads request bodies under the contract's media types and limits.
///
/// JSON bodies are decoded by the project's JSON engine into the wire types: strict syntax
/// (a repeated member, a byte-order mark, invalid UTF-8 are refused), integers without fraction
/// or exponent, members the type does not name ignored. Every refusal is a 400
/// `invalid_request` problem naming the member.
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

    /// The body as `type`: `application/json`, at most 64 KiB, strict JSON that decodes.
    /// - Throws: ``Problem``: 400 (no body, malformed, not the type), 413 (too large), 415
    ///   (another media type).
    static func json<T: Decodable>(_ request: ServerRequest, as type: T.Type) throws(Problem) -> T {
        try checkJSON(request)
        return try decode(request, as: type)
    }

    /// Checks that the request has a JSON body the contract accepts, before it is read: not
    /// empty, `application/json`, at most 64 KiB.
    static func checkJSON(_ request: ServerRequest) throws(Problem) {
        guard !request.body.isEmpty else { throw Problem(.invalidRequest, "a JSON body is required") }
        let type = try mediaType(of: request)
        guard type.essence == "application/json" else {
            throw Problem(.unsupportedMediaType, "the body is \(type.essence); send application/json")
        }
        try checkJSONSize(request)
    }

    /// Decodes a JSON body already known to be `application/json` and small enough.
    static func decode<T: Decodable>(_ request: ServerRequest, as type: T.Type) throws(Problem) -> T {
        do {
            return try StreamingJSONDecoder().decode(type, from: request.body)
        } catch let error as DecodingError {
            throw problem(for: error)
        } catch {
            throw Problem(.invalidRequest, "the body does not decode: \(error)")
        }
    }

    /// The body in the engine's canonical form (members sorted, one spelling of each string),
    /// so that the same JSON value in another member order or spacing compares equal; `nil`
    /// when the body is not strict JSON.
    static func canonicalJSON(_ request: ServerRequest) -> Data? {
        try? JSONCanonicalForm.bytes(of: request.body)
    }

    /// A 413 problem when the body is over the JSON limit.
    static func checkJSONSize(_ request: ServerRequest) throws(Problem) {
        guard request.body.count <= maximumJSONBytes else {
            throw Problem(
                .bodyTooLarge,
                "the JSON body is \(request.body.count) bytes; at most \(maximumJSONBytes) are accepted")
        }
    }

    /// The 400 problem for a decoding error, naming the member (`amount.amountMinor`).
    static func problem(for error: DecodingError) -> Problem {
        func name(_ path: [any CodingKey]) -> String {
            path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
                .replacingOccurrences(of: ".[", with: "[")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return Problem(.invalidRequest, "\(name(context.codingPath + [key])) is required")
        case .valueNotFound(_, let context) where context.codingPath.isEmpty,
            .typeMismatch(_, let context) where context.codingPath.isEmpty:
            return Problem(.invalidRequest, "the body must be a JSON object: \(context.debugDescription)")
        case .valueNotFound(_, let context), .typeMismatch(_, let context):
            return Problem(.invalidRequest, "\(name(context.codingPath)): \(context.debugDescription)")
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return Problem(.invalidRequest, "the body is \(context.debugDescription)")
        case .dataCorrupted(let context):
            return Problem(.invalidRequest, "\(name(context.codingPath)): \(context.debugDescription)")
        @unknown default:
            return Problem(.invalidRequest, "the body does not decode: \(error)")
        }
    }
}
