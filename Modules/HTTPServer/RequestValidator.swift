import Foundation
import HTTPTypes

/// The checks every request head passes before it reaches a handler.
///
/// libmicrohttpd 0.9.75 accepts heads that let two parsers disagree about where a request ends
/// (request smuggling): these are answered here with 400 and the connection is closed.
enum RequestValidator {
    /// Why a head was refused, and the answer for it.
    enum Rejection: Equatable {
        case badRequest(String)
        case headersTooLarge(String)
        case bodyTooLarge(limit: Int)

        var response: ServerResponse {
            switch self {
            case .badRequest(let detail):
                .problem(400, detail: detail)
            case .headersTooLarge(let detail):
                .problem(431, detail: detail)
            case .bodyTooLarge(let limit):
                .problem(413, detail: "The request body is larger than the server accepts (\(limit) bytes).")
            }
        }
    }

    /// The first rule the head of `context` breaks, or `nil` when it may be served.
    static func check(
        _ context: RequestContext,
        version: UnsafePointer<CChar>?,
        configuration: HTTPServer.Configuration
    ) -> Rejection? {
        guard context.targetIsValid else {
            return .badRequest("The request-target must be non-empty and hold only visible ASCII characters.")
        }
        if context.headers.count > configuration.maxHeaderCount {
            return .headersTooLarge("The request has more than \(configuration.maxHeaderCount) header fields.")
        }
        if context.headerBytes > configuration.maxHeaderBytes {
            return .headersTooLarge("The request's header fields exceed \(configuration.maxHeaderBytes) bytes.")
        }
        if context.headIsBroken {
            return .badRequest(
                "The request head is malformed: a NUL byte inside the request line or a field, or a folded field line."
            )
        }
        if context.headerNameIsInvalid {
            return .badRequest("A header field name holds a character that is not allowed in a token (RFC 9110).")
        }
        if context.headerHasControlCharacter {
            return .badRequest("A header field value contains NUL, CR or LF.")
        }
        if context.hostCount > 1 {
            return .badRequest("The request has more than one Host header field.")
        }
        if context.hostCount == 0, let version, strcmp(version, "HTTP/1.1") == 0 {
            return .badRequest("An HTTP/1.1 request must carry a Host header field.")
        }
        if context.contentLengthCount > 1 {
            return .badRequest("The request has more than one Content-Length header field.")
        }
        if let transferEncoding = context.transferEncoding {
            if context.contentLengthCount > 0 {
                return .badRequest("The request has both Content-Length and Transfer-Encoding.")
            }
            guard transferEncoding.equalsIgnoringASCIICase("chunked") else {
                return .badRequest("The only transfer coding accepted is chunked.")
            }
        }
        if let contentLength = context.contentLength {
            guard !contentLength.isEmpty, contentLength.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                return .badRequest("The Content-Length header field is not a decimal number.")
            }
            guard let length = Int(contentLength), length <= configuration.maxBodyBytes else {
                return .bodyTooLarge(limit: configuration.maxBodyBytes)
            }
        }
        return nil
    }
}
