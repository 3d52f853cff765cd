import CHTTPParser
import Foundation
import HTTP1Parsing

/// http-parser's callbacks for requests, shared by every server connection.
///
/// Each callback finds its ``ServerConnection`` through the parser's `data` pointer and fills the
/// connection's ``RequestParts``; the bytes they are handed are slices of the connection's read
/// buffer, copied here because they outlive the call. A callback that finds a limit passed sets
/// the connection's refusal and stops the parser.
enum RequestParserSettings {
    /// The settings, made once and never changed: safe to share between threads, which only read it.
    nonisolated(unsafe) static let pointer: UnsafeMutablePointer<http_parser_settings> = HTTP1Parser.makeSettings {
        value in
        value.on_message_begin = { parser in
            // The parts were reset when the previous request was answered (or are new).
            let connection = RequestParserSettings.connection(parser)
            connection.chunkRemaining = 0
            connection.chunkEndLeft = 0
            return 0
        }
        value.on_url = { parser, at, length in
            let connection = RequestParserSettings.connection(parser)
            connection.request.methodKnown = true
            connection.request.target.append(contentsOf: RequestParserSettings.bytes(at, length))
            let limit = connection.core.configuration.maxTargetBytes
            guard connection.request.target.count <= limit else {
                connection.refusal = Refusal(
                    reason: .targetTooLong, status: 414,
                    detail: "The request-target is longer than \(limit) bytes.")
                return 1
            }
            return 0
        }
        value.on_header_field = { parser, at, length in
            let connection = RequestParserSettings.connection(parser)
            if connection.request.inValue {
                connection.request.endField()
                if let refusal = connection.checkFieldLimits() {
                    connection.refusal = refusal
                    return 1
                }
            }
            // A field line's bytes count with its colon, space and CRLF.
            let overhead = connection.request.name.isEmpty ? 4 : 0
            connection.request.name.append(contentsOf: RequestParserSettings.bytes(at, length))
            return connection.countFieldBytes(length + overhead)
        }
        value.on_header_value = { parser, at, length in
            let connection = RequestParserSettings.connection(parser)
            // Only a message marked as using a transfer coding can need it.
            if !connection.request.inValue, parser?.pointee.uses_transfer_encoding == 1 {
                connection.request.name.withUnsafeBytes { name in
                    HTTP1Parser.settleTransferEncoding(parser, name: name) { connection.request.transferCodings }
                }
            }
            connection.request.inValue = true
            connection.request.value.append(contentsOf: RequestParserSettings.bytes(at, length))
            return connection.countFieldBytes(length)
        }
        value.on_headers_complete = { parser in
            guard let parser else { return 0 }
            let connection = RequestParserSettings.connection(parser)
            if connection.request.inValue { connection.request.endField() }
            if let refusal = connection.checkFieldLimits() ?? connection.checkHead() {
                connection.refusal = refusal
                // Returning non-zero here means "no body", not an error: pause instead.
                http_parser_pause(parser, 1)
                return 0
            }
            connection.request.inTrailers = true
            connection.headComplete()
            return 0
        }
        value.on_chunk_header = { parser in
            guard let parser else { return 0 }
            let connection = RequestParserSettings.connection(parser)
            connection.chunkRemaining = parser.pointee.content_length
            return 0
        }
        value.on_body = { parser, at, length in
            let connection = RequestParserSettings.connection(parser)
            if let at, connection.chunkRemaining > 0 {
                // Debian's parser is not strict: it skips the two bytes after a chunk's data
                // whatever they are, so the CRLF is checked here.
                connection.chunkRemaining -= UInt64(min(UInt64(length), connection.chunkRemaining))
                if connection.chunkRemaining == 0 {
                    connection.chunkEndLeft = 2
                    guard
                        connection.checkChunkEnd(
                            from: UnsafeRawPointer(at) - UnsafeRawPointer(connection.buffer) + length)
                    else {
                        connection.refusal = .malformed("A chunk's data is not followed by CRLF.")
                        return 1
                    }
                }
            }
            let limit = connection.core.configuration.maxBodyBytes
            guard connection.request.body.count + length <= limit else {
                connection.refusal = Refusal(
                    reason: .bodyTooLarge, status: 413,
                    detail: "The request body is larger than the server accepts (\(limit) bytes).")
                return 1
            }
            connection.request.body.append(contentsOf: RequestParserSettings.bytes(at, length))
            return 0
        }
        value.on_message_complete = { parser in
            guard let parser else { return 0 }
            let connection = RequestParserSettings.connection(parser)
            if connection.request.inValue { connection.request.endField() }
            if let refusal = connection.checkFieldLimits() {
                connection.refusal = refusal
                return 1
            }
            connection.messageComplete = true
            // Stop here: the next pipelined request is parsed once this one is answered.
            http_parser_pause(parser, 1)
            return 0
        }
    }

    private static func connection(_ parser: UnsafeMutablePointer<http_parser>?) -> ServerConnection {
        // Bound by `ServerConnection.open()`; the connection outlives every parse of its bytes.
        HTTP1Parser.owner(of: parser, as: ServerConnection.self)
    }

    private static func bytes(_ at: UnsafePointer<CChar>?, _ length: Int) -> UnsafeRawBufferPointer {
        HTTP1Parser.bytes(at, length)
    }
}
