public import Foundation
public import HTTPTypes
public import JSON

extension ServerResponse {
    /// A 200 JSON response from an `Encodable` value; a 500 problem if the value cannot be encoded.
    /// - Parameters:
    ///   - value: The value to encode.
    ///   - encoder: The encoder to use; ``JSON/StreamingJSONEncoder`` unless given.
    public static func json(
        _ value: some Encodable,
        encoder: any JSONBodyEncoder = StreamingJSONEncoder()
    ) -> ServerResponse {
        json(200, value, encoder: encoder)
    }

    /// A JSON response from an `Encodable` value; a 500 problem if the value cannot be encoded.
    /// - Parameters:
    ///   - status: The status code.
    ///   - value: The value to encode.
    ///   - encoder: The encoder to use; ``JSON/StreamingJSONEncoder`` unless given.
    public static func json(
        _ status: Int,
        _ value: some Encodable,
        encoder: any JSONBodyEncoder = StreamingJSONEncoder()
    ) -> ServerResponse {
        do {
            return json(status, data: try encoder.encode(value))
        } catch {
            return problem(500, detail: "The response could not be encoded as JSON.")
        }
    }

    /// A JSON response from bytes that already hold JSON.
    /// - Parameters:
    ///   - status: The status code; 200 unless given.
    ///   - data: The encoded JSON.
    public static func json(_ status: Int = 200, data: Data) -> ServerResponse {
        ServerResponse(status: status, headers: jsonHeaders, body: data)
    }

    /// A 200 plain-text (UTF-8) response.
    /// - Parameter text: The body text.
    public static func text(_ text: String) -> ServerResponse {
        self.text(200, text)
    }

    /// A plain-text (UTF-8) response.
    /// - Parameters:
    ///   - status: The status code.
    ///   - text: The body text.
    public static func text(_ status: Int, _ text: String) -> ServerResponse {
        ServerResponse(status: status, headers: textHeaders, body: Data(text.utf8))
    }

    /// An `application/problem+json` response (RFC 9457).
    /// - Parameters:
    ///   - status: The status code.
    ///   - title: A short summary; the status's reason phrase unless given.
    ///   - detail: What went wrong, for a person to act on. Never put secrets or request bodies here.
    ///   - type: The problem type URI; `about:blank` unless given.
    public static func problem(
        _ status: Int,
        title: String? = nil,
        detail: String,
        type: String = "about:blank"
    ) -> ServerResponse {
        problem(ProblemDetails(type: type, title: title, status: status, detail: detail))
    }

    /// An `application/problem+json` response (RFC 9457) from a problem document.
    ///
    /// A 503 or 429 without a `Retry-After` in `headers` gets `Retry-After: 1`, so a client always
    /// learns when trying again makes sense.
    /// - Parameters:
    ///   - details: The problem document; its `status` is the response status (500 when absent).
    ///   - headers: Further header fields, such as `Retry-After` or `Allow`.
    public static func problem(_ details: ProblemDetails, headers: ServerHeaders = [:]) -> ServerResponse {
        let body = (try? SortedKeysJSONEncoder().encode(details)) ?? Data("{}".utf8)
        var fields = problemHeaders
        for field in headers { fields.add(name: field.name, value: field.value) }
        if details.status == 503 || details.status == 429, !fields.contains("Retry-After") {
            fields.add(name: "Retry-After", value: "1")
        }
        return ServerResponse(
            status: details.status ?? 500,
            headers: fields,
            body: body
        )
    }

    // The constructors' fields, made once: a literal would build two arrays for every response.
    private static let jsonHeaders: ServerHeaders = ["Content-Type": "application/json"]
    private static let textHeaders: ServerHeaders = ["Content-Type": "text/plain; charset=utf-8"]
    private static let problemHeaders: ServerHeaders = ["Content-Type": "application/problem+json"]

    /// An empty response with status 204 No Content.
    public static var noContent: ServerResponse { ServerResponse(status: 204) }
}
