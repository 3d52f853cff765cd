import Foundation
import JSON

extension RequestTask {
    /// The query and body a task produces.
    struct Encoded {
        // Spelled `Optional<T>`, without the implicit `nil` initial value of `T?` that makes the
        // initializer copy and then destroy the whole value.
        var query: Optional<QueryParameters>
        var body: Optional<Data>
        var contentType: Optional<String>

        init(query: QueryParameters? = nil, body: Data? = nil, contentType: String? = nil) {
            self.query = query
            self.body = body
            self.contentType = contentType
        }
    }

    /// Encodes the task, consuming it so that its payload is moved rather than copied.
    /// - Parameters:
    ///   - encoder: The encoder for `.json` tasks that do not bring their own.
    ///   - boundary: Makes a multipart boundary when the task gives none.
    /// - Throws: ``RequestTaskEncodingError`` when a body cannot be encoded.
    consuming func encoded(encoder: any JSONBodyEncoder, boundary: () -> String) throws -> Encoded {
        switch consume self {
        case .plain:
            return Encoded()
        case .query(let parameters):
            return Encoded(query: parameters)
        case .json(let value, let custom):
            do {
                return Encoded(body: try (custom ?? encoder).encode(value), contentType: "application/json")
            } catch {
                throw RequestTaskEncodingError(message: "the JSON body could not be encoded: \(error)")
            }
        case .form(let parameters):
            return Encoded(
                body: Data(parameters.formEncoded.utf8),
                contentType: "application/x-www-form-urlencoded"
            )
        case .multipart(let parts, let given):
            let chosen = given ?? boundary()
            guard MultipartEncoder.isValidBoundary(chosen) else {
                throw RequestTaskEncodingError(
                    message: "multipart boundary \"\(chosen)\" is not 1-70 characters of RFC 2046's set"
                )
            }
            return Encoded(
                body: MultipartEncoder.encode(parts, boundary: chosen),
                contentType: "multipart/form-data; boundary=\(chosen)"
            )
        case .data(let data, let contentType):
            return Encoded(body: data, contentType: contentType)
        case .queryAndBody(let parameters, let bodyTask):
            if case .queryAndBody = bodyTask {
                throw RequestTaskEncodingError(message: "queryAndBody cannot nest another queryAndBody")
            }
            var inner = try bodyTask.encoded(encoder: encoder, boundary: boundary)
            if let innerQuery = inner.query {
                var merged = parameters
                merged.items += innerQuery.items
                inner.query = merged
            } else {
                inner.query = parameters
            }
            return inner
        }
    }
}

/// A request body that could not be encoded.
struct RequestTaskEncodingError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
