import AppLogging
import Foundation
import HTTPTypes

/// Writes a ``ServerResponse`` as HTTP/1.1 bytes: status line, the handler's fields (less the
/// framing and connection fields, which are the server's), `Content-Length`, `Date` and, when
/// asked, `Connection: close`.
enum ResponseEncoder {
    /// What the encoder decided about the connection.
    struct Outcome {
        /// Whether the response asked for the connection to close.
        var handlerAskedToClose: Bool
        /// The handler's status when it was not one (500 was sent instead).
        var invalidStatus: Int?
        /// The names of the fields left out for a malformed name or value.
        var droppedFields: [String] = []

        /// Whether the handler's answer had to be changed (``report(to:)`` has something to log).
        var hasFaults: Bool { invalidStatus != nil || !droppedFields.isEmpty }

        /// Logs what was wrong with the handler's answer. The caller logs only when
        /// ``hasFaults``, so that a sound answer costs no copy of the logger.
        func report(to logger: Logger) {
            if let invalidStatus {
                logger.error("handler answered with an invalid status", metadata: ["status": "\(invalidStatus)"])
            }
            for name in droppedFields {
                logger.warning(
                    "dropped a response field with a malformed name or value", metadata: ["field": "\(name)"])
            }
        }
    }

    /// Appends `response` to `output`.
    /// - Parameters:
    ///   - close: Whether to add `Connection: close`.
    ///   - keepAliveField: Whether to add `Connection: keep-alive` (an HTTP/1.0 client that asked for it).
    ///   - bodyless: Whether to leave the body out (the answer to HEAD).
    ///   - dateLine: The `Date` field line, CRLF included.
    static func encode(
        _ response: ServerResponse, into output: inout [UInt8], close: Bool, keepAliveField: Bool, bodyless: Bool,
        dateLine: [UInt8]
    ) -> Outcome {
        var outcome = Outcome(handlerAskedToClose: false)
        var status = response.status
        if !(200...599).contains(status) {
            outcome.invalidStatus = status
            status = 500
        }
        var askedToClose = false
        output.append(contentsOf: "HTTP/1.1 ".utf8)
        output.append(UInt8(ascii: "0") + UInt8(status / 100))
        output.append(UInt8(ascii: "0") + UInt8(status / 10 % 10))
        output.append(UInt8(ascii: "0") + UInt8(status % 10))
        output.append(UInt8(ascii: " "))
        output.append(contentsOf: ProblemDetails.reasonPhrase(for: status).utf8)
        output.append(contentsOf: "\r\n".utf8)
        for field in response.headers {
            if ServerHeaders.isConnectionSpecific(field.name) {
                // Framing and connection fields are the server's: a proxied upstream's
                // `Transfer-Encoding` or `Connection: keep-alive` must not reach the client.
                if field.name.equalsIgnoringASCIICase("Connection"), field.value.lowercased().contains("close") {
                    askedToClose = true
                }
                continue
            }
            guard isFieldName(field.name), isFieldValue(field.value) else {
                // A CR or LF here would let a value forge fields or a second response.
                outcome.droppedFields.append(field.name)
                continue
            }
            output.append(contentsOf: field.name.utf8)
            output.append(contentsOf: ": ".utf8)
            output.append(contentsOf: field.value.utf8)
            output.append(contentsOf: "\r\n".utf8)
        }
        output.append(contentsOf: dateLine)
        if close || askedToClose {
            output.append(contentsOf: "Connection: close\r\n".utf8)
        } else if keepAliveField {
            output.append(contentsOf: "Connection: keep-alive\r\n".utf8)
        }
        let hasBody = status != 204 && status != 304
        if hasBody {
            output.append(contentsOf: "Content-Length: ".utf8)
            appendDecimal(response.body.count, to: &output)
            output.append(contentsOf: "\r\n".utf8)
        }
        output.append(contentsOf: "\r\n".utf8)
        if hasBody && !bodyless { output.append(contentsOf: response.body) }
        outcome.handlerAskedToClose = askedToClose
        return outcome
    }

    /// Appends the decimal digits of `value` (not negative), without making a string of them.
    private static func appendDecimal(_ value: Int, to output: inout [UInt8]) {
        var divisor = 1
        while divisor <= value / 10 { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            output.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    // The checks below read each field's bytes through a span: stepping through a `String.UTF8View`
    // byte by byte costs several times more (every answer's every field is checked).

    private static func isFieldName(_ name: String) -> Bool {
        let bytes = name.utf8.span
        guard !bytes.isEmpty else { return false }
        for index in bytes.indices where !HeadScanner.isTokenCharacter(bytes[index]) { return false }
        return true
    }

    private static func isFieldValue(_ value: String) -> Bool {
        let bytes = value.utf8.span
        for index in bytes.indices {
            let byte = bytes[index]
            guard byte >= 0x20 ? byte != 0x7F : byte == 0x09 else { return false }
        }
        return true
    }
}
