import CHTTPParser
import Foundation
import HTTP1Parsing
import HTTPTypes
import ServiceCore

/// Feeds a connection's bytes to http-parser and fills the connection's response fields from its
/// callbacks.
enum HTTP1ResponseParser {
    /// What a call of ``feed(_:_:count:settings:)`` found.
    enum Outcome: Equatable {
        /// The answer is not complete yet.
        case needMore
        /// The final answer is complete; `leftover` bytes followed it in the same read.
        case complete(leftover: Int)
        /// The bytes are not an HTTP/1.x answer; the parser's error name and description.
        case malformed(String)
        /// The body is over the configured limit.
        case bodyTooLarge
        /// The head is over the configured limit.
        case headTooLarge
    }

    /// The callbacks, for ``feed(_:_:count:settings:)``; one copy per loop client.
    static func makeSettings() -> UnsafeMutablePointer<http_parser_settings> {
        HTTP1Parser.makeSettings(configure)
    }

    private static func configure(_ value: inout http_parser_settings) {
        value.on_header_field = { parser, at, length in
            let connection = HTTP1ResponseParser.connection(parser)
            if connection.inValue { connection.flushField() }
            return connection.appendHead(at, length, toValue: false)
        }
        value.on_header_value = { parser, at, length in
            let connection = HTTP1ResponseParser.connection(parser)
            // Only an answer marked as using a transfer coding can need it.
            if !connection.inValue, parser?.pointee.uses_transfer_encoding == 1 {
                connection.name.withUnsafeBytes { name in
                    HTTP1Parser.settleTransferEncoding(parser, name: name) {
                        connection.fields.filter { $0.name.equalsIgnoringASCIICase("transfer-encoding") }.map(\.value)
                    }
                }
            }
            connection.inValue = true
            return connection.appendHead(at, length, toValue: true)
        }
        value.on_status = { parser, _, length in
            let connection = HTTP1ResponseParser.connection(parser)
            connection.headBytes += length
            if connection.headBytes > connection.maxHeadSize {
                connection.headTooLarge = true
                return 1
            }
            return 0
        }
        value.on_headers_complete = { parser in
            guard let parser else { return 1 }
            let connection = HTTP1ResponseParser.connection(parser)
            connection.flushField()
            let status = Int(parser.pointee.status_code)
            // http-parser takes a status of one or two digits; HTTP's has three (RFC 9112 §4).
            guard status >= 100 else { return -1 }
            connection.status = status
            // An interim answer (100 Continue, 103 Early Hints) is dropped; the final one follows.
            connection.interim = status >= 100 && status < 200 && status != 101
            // 1: no body follows, whatever the fields say: an interim answer, the answer to HEAD,
            // and a 204 or 304 (RFC 9112 §6.3; http-parser would read a body a `Content-Length`
            // announces).
            let bodiless = connection.interim || status == 204 || status == 304
            return bodiless || connection.exchange?.method == .head ? 1 : 0
        }
        value.on_body = { parser, at, length in
            let connection = HTTP1ResponseParser.connection(parser)
            guard connection.body.count + length <= connection.maxBodySize else {
                connection.bodyTooLarge = true
                return 1
            }
            if let at {
                connection.body.append(UnsafeRawPointer(at).assumingMemoryBound(to: UInt8.self), count: length)
            }
            return 0
        }
        value.on_message_complete = { parser in
            guard let parser else { return 1 }
            let connection = HTTP1ResponseParser.connection(parser)
            if connection.interim {
                connection.interim = false
                connection.fields.removeAll(keepingCapacity: true)
                connection.status = 0
                return 0
            }
            connection.complete = true
            // Stop here: bytes after the answer are not parsed as another one.
            http_parser_pause(parser, 1)
            return 0
        }
    }

    /// Parses `count` bytes at `bytes` (or the end of the stream when `count` is 0).
    static func feed(
        _ connection: HTTP1Connection, _ bytes: UnsafePointer<CChar>?, count: Int,
        settings: UnsafeMutablePointer<http_parser_settings>
    ) -> Outcome {
        let parsed = connection.parser.execute(settings, bytes, count: count)
        if connection.complete { return .complete(leftover: count - parsed) }
        if connection.bodyTooLarge { return .bodyTooLarge }
        if connection.headTooLarge { return .headTooLarge }
        let error = connection.parser.error
        if error == HPE_CB_headers_complete {
            let status = connection.parser.state.pointee.status_code
            return .malformed("the status code \(status) does not have three digits")
        }
        if error == HPE_CB_header_value { return .malformed("a field value holds a NUL byte") }
        if error != HPE_OK { return .malformed(HTTP1Parser.describe(error)) }
        return .needMore
    }

    private static func connection(_ parser: UnsafeMutablePointer<http_parser>?) -> HTTP1Connection {
        // Bound by `HTTP1Connection.beginResponse()`, which runs before every parse.
        HTTP1Parser.owner(of: parser, as: HTTP1Connection.self)
    }
}

extension HTTP1Connection {
    /// Appends head bytes to `value` or `name`, within the head limit; 0, or 1 to stop the parser.
    fileprivate func appendHead(_ at: UnsafePointer<CChar>?, _ length: Int, toValue: Bool) -> Int32 {
        headBytes += length
        guard headBytes <= maxHeadSize else {
            headTooLarge = true
            return 1
        }
        guard let at else { return 0 }
        let buffer = UnsafeBufferPointer(start: UnsafeRawPointer(at).assumingMemoryBound(to: UInt8.self), count: length)
        // http-parser lets a NUL through in a value; RFC 9110 §5.5 has it refused.
        if toValue && buffer.contains(0) { return 1 }
        if toValue { value.append(contentsOf: buffer) } else { name.append(contentsOf: buffer) }
        return 0
    }
}
