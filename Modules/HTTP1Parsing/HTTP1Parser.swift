package import CHTTPParser
import HTTPTypes

/// One http-parser state (Debian's `libhttp-parser-dev`), allocated once for a connection, and
/// the glue its callbacks share: finding their owner, reading the bytes they are handed,
/// describing an error. The HTTP server parses requests with it, the HTTP/1.1 transport answers.
///
/// The callbacks are C functions: each finds the object that owns the parser through the
/// parser's `data` pointer (``bind(to:)``, ``owner(of:as:)``), and the bytes they are handed
/// are slices of the caller's buffer, valid only during the call.
package final class HTTP1Parser {
    /// The C state, for the fields the callbacks read (`method`, `http_major`, `flags`...).
    package let state: UnsafeMutablePointer<http_parser>

    /// Allocates a parser for requests or responses.
    package init(_ type: http_parser_type) {
        state = .allocate(capacity: 1)
        state.initialize(to: http_parser())
        http_parser_init(state, type)
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Starts over for a new message stream of `type`; the owner must be bound again.
    package func reset(_ type: http_parser_type) {
        http_parser_init(state, type)
    }

    /// Makes `owner` what the callbacks find; the owner must outlive every parse.
    package func bind(to owner: AnyObject) {
        state.pointee.data = Unmanaged.passUnretained(owner).toOpaque()
    }

    /// Parses `count` bytes (0: the end of the stream); returns how many were consumed.
    package func execute(
        _ settings: UnsafePointer<http_parser_settings>, _ bytes: UnsafePointer<CChar>?, count: Int
    ) -> Int {
        http_parser_execute(state, settings, bytes, count)
    }

    /// The parser's error (`HTTP_PARSER_ERRNO`); `HPE_OK` when none, `HPE_PAUSED` when paused.
    package var error: http_errno { swifty_http1_parser_errno(state) }

    /// Whether the connection may carry another message after this one.
    package var shouldKeepAlive: Bool { http_should_keep_alive(state) != 0 }

    /// Pauses (or resumes) the parser: a callback pauses it to stop at a message's end.
    package func pause(_ paused: Bool) {
        http_parser_pause(state, paused ? 1 : 0)
    }

    /// The object bound to the parser a callback was given.
    package static func owner<Owner: AnyObject>(of parser: UnsafeMutablePointer<http_parser>?, as _: Owner.Type)
        -> Owner
    {
        // Bound before every parse (`bind(to:)`); the owner outlives it.
        Unmanaged<Owner>.fromOpaque(parser!.pointee.data).takeUnretainedValue()
    }

    /// Puts back what http-parser knows of a message's `Transfer-Encoding` fields after a field
    /// whose name only begins with `transfer-encoding`; call it from `on_header_value`, when the
    /// field's name is complete.
    ///
    /// http-parser 2.9 takes such a field (`Transfer-Encodingx`) for a `Transfer-Encoding` one:
    /// it marks the message as using a transfer coding, so that a `Content-Length`, or a request
    /// without a body, is refused, and forgets that an earlier field ended with `chunked`, so that
    /// the body is read until the peer closes.
    /// - Parameters:
    ///   - parser: The parser the callback was given.
    ///   - name: The current field's name.
    ///   - earlierValues: The values of the fields named exactly `Transfer-Encoding` so far, in
    ///     order; asked only when the current field is such a one.
    package static func settleTransferEncoding(
        _ parser: UnsafeMutablePointer<http_parser>?,
        name: UnsafeRawBufferPointer,
        earlierValues: () -> [String]
    ) {
        let prefix: StaticString = "transfer-encoding"
        guard let parser, parser.pointee.uses_transfer_encoding == 1, name.count > prefix.utf8CodeUnitCount,
            ASCIICaseInsensitive.equal(UnsafeRawBufferPointer(rebasing: name[..<prefix.utf8CodeUnitCount]), prefix)
        else { return }
        let values = earlierValues()
        parser.pointee.uses_transfer_encoding = values.isEmpty ? 0 : 1
        // As http-parser reads it: the last field's last coding, spaces aside.
        var coding = values.last?.split(separator: ",", omittingEmptySubsequences: false).last ?? ""
        while let first = coding.first, first == " " || first == "\t" { coding.removeFirst() }
        while let last = coding.last, last == " " || last == "\t" { coding.removeLast() }
        let flag = UInt32(F_CHUNKED.rawValue)
        let flags = parser.pointee.flags
        parser.pointee.flags = String(coding).equalsIgnoringASCIICase("chunked") ? flags | flag : flags & ~flag
    }

    /// The bytes a data callback was handed.
    package static func bytes(_ at: UnsafePointer<CChar>?, _ length: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: at, count: at == nil ? 0 : length)
    }

    /// The error's name and description, for an error message.
    package static func describe(_ error: http_errno) -> String {
        "\(String(cString: http_errno_name(error))): \(String(cString: http_errno_description(error)))"
    }

    /// Settings filled by `configure`, allocated for the caller, who frees them (or keeps them
    /// for the process's life): the callbacks shared by the parsers of one kind.
    package static func makeSettings(_ configure: (inout http_parser_settings) -> Void)
        -> UnsafeMutablePointer<http_parser_settings>
    {
        var value = http_parser_settings()
        configure(&value)
        let settings = UnsafeMutablePointer<http_parser_settings>.allocate(capacity: 1)
        settings.initialize(to: value)
        return settings
    }
}
