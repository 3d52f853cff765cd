public import Foundation
public import HTTPTypes
public import JSON
public import ServiceCore

extension MockTransport {
    /// What a ``MockTransport`` answers a request with.
    ///
    /// Build replies with the static functions (`.status(503)`, `.json(200, #"{"id":1}"#)`,
    /// `.error(.timedOut)`, `.delay(.seconds(2), then: .ok)`) or use a preset (`.ok`, `.notFound`,
    /// `.timeout`, `.connectionRefused`, `.echo`).
    public indirect enum Reply: Sendable {
        /// Answers with this response.
        case response(HTTPResponse)
        /// Throws this error.
        case failure(TransportError)
        /// Waits, then answers with the inner reply. The wait ends early, throwing
        /// `TransportError` `cancelled`, when the task is cancelled, and throws `timedOut` when the
        /// request's timeout is shorter than the delay.
        case delayed(Duration, Reply)
        /// Asks a closure; an error it throws that is not a `TransportError` becomes one with code
        /// `other`.
        case responder(@Sendable (HTTPRequest) async throws -> HTTPResponse)

        /// A response with this status, optional headers and an empty body.
        public static func status(_ status: Int, headers: HTTPHeaders = [:]) -> Reply {
            .response(HTTPResponse(status: status, headers: headers))
        }

        /// A JSON response from its text, with `Content-Type: application/json`.
        public static func json(_ status: Int, _ text: String, headers: HTTPHeaders = [:]) -> Reply {
            .data(status, Data(text.utf8), contentType: "application/json", headers: headers)
        }

        /// A JSON response encoding `value`; an encoding failure becomes a `.failure` reply with
        /// code `other` that names the type, so the test fails with a clear message.
        public static func json(
            _ status: Int,
            encoding value: some Encodable & Sendable,
            encoder: any JSONBodyEncoder = StreamingJSONEncoder(),
            headers: HTTPHeaders = [:]
        ) -> Reply {
            do {
                return .data(status, try encoder.encode(value), contentType: "application/json", headers: headers)
            } catch {
                return .failure(TransportError(.other, "the mock could not encode \(type(of: value)): \(error)"))
            }
        }

        /// A plain-text response, with `Content-Type: text/plain; charset=utf-8`.
        public static func text(_ status: Int, _ text: String, headers: HTTPHeaders = [:]) -> Reply {
            .data(status, Data(text.utf8), contentType: "text/plain; charset=utf-8", headers: headers)
        }

        /// A response with these body bytes and content type.
        public static func data(_ status: Int, _ body: Data, contentType: String, headers: HTTPHeaders = [:]) -> Reply {
            var all = headers
            if !all.contains("Content-Type") { all.add(name: "Content-Type", value: contentType) }
            return .response(HTTPResponse(status: status, headers: all, body: body))
        }

        /// An RFC 9457 problem answer from its JSON text, with `Content-Type: application/problem+json`.
        public static func problem(_ status: Int, _ json: String, headers: HTTPHeaders = [:]) -> Reply {
            .data(status, Data(json.utf8), contentType: "application/problem+json", headers: headers)
        }

        /// Throws a `TransportError` with this code and message.
        public static func error(_ code: TransportError.Code, _ message: String = "scripted by the mock") -> Reply {
            .failure(TransportError(code, message))
        }

        /// Waits `duration` (honouring cancellation and the request's timeout), then gives `reply`.
        public static func delay(_ duration: Duration, then reply: Reply) -> Reply {
            .delayed(duration, reply)
        }

        /// Answers with a closure.
        public static func respond(_ body: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse) -> Reply {
            .responder(body)
        }

        // MARK: Presets

        /// `200` with an empty body.
        public static var ok: Reply { .status(200) }
        /// `204 No Content`.
        public static var noContent: Reply { .status(204) }
        /// `400 Bad Request`.
        public static var badRequest: Reply { .status(400) }
        /// `401 Unauthorized`.
        public static var unauthorized: Reply { .status(401) }
        /// `404 Not Found`.
        public static var notFound: Reply { .status(404) }
        /// `500 Internal Server Error`.
        public static var serverError: Reply { .status(500) }
        /// `503 Service Unavailable`.
        public static var serviceUnavailable: Reply { .status(503) }
        /// `429 Too Many Requests` with a `Retry-After` of `seconds`.
        public static func tooManyRequests(retryAfter seconds: Int) -> Reply {
            .status(429, headers: ["Retry-After": String(seconds)])
        }
        /// Throws `timedOut`, as a transport does when the upstream is too slow.
        public static var timeout: Reply { .error(.timedOut, "scripted timeout") }
        /// Throws `connectionFailed`, as a transport does when the upstream refuses connections.
        public static var connectionRefused: Reply { .error(.connectionFailed, "scripted connection refusal") }
        /// Throws `connectionClosed`, as a transport does when the upstream drops the connection.
        public static var connectionReset: Reply { .error(.connectionClosed, "scripted connection reset") }
        /// `200` echoing the request: its body, and its method and target in `X-Echo-Method` and
        /// `X-Echo-Target`.
        public static var echo: Reply {
            .respond { request in
                var target = request.url.path
                if let query = request.url.query { target += "?" + query }
                let headers: HTTPHeaders = ["X-Echo-Method": request.method.rawValue, "X-Echo-Target": target]
                return HTTPResponse(status: 200, headers: headers, body: request.body ?? Data())
            }
        }
    }
}
