import CCurl
import Foundation
import HTTPTypes
import ServiceCore
import Synchronization

/// One request on its way through libcurl: what to send, and the response as it arrives.
///
/// Created by the calling task, then handed to the thread that drives it: the curl thread through
/// ``CurlMultiLoop``'s locked queue (whose lock orders the hand-over), or, from an event loop's
/// thread, a ``CurlLoopDriver`` on that same thread. Only that thread then reads or writes its
/// mutable state. `cancelRequested` is the one field both sides touch, and it is atomic. That is
/// why `@unchecked Sendable` is safe here.
final class CurlTransfer: @unchecked Sendable {
    /// Where the transfer is, as seen by the thread that drives it.
    enum State {
        case queued
        case running
        case finished
    }

    let method: HTTPMethod
    let url: String
    /// The request body, or `nil` when none is sent.
    let body: Data?
    let timeoutMilliseconds: Int
    let maxResponseBodySize: Int
    /// The request's URL, for ``summary``; `nil` for a URL the client built and checked, which
    /// is parsed only if a summary is needed.
    let requestURL: URL?
    /// The header list, built on the calling task in one allocation (see
    /// ``makeHeaderList(_:sendsBody:)``); freed in `deinit`, after the easy handle let go.
    private(set) var headerList: UnsafeMutablePointer<curl_slist>?

    /// Set by the calling task before hand-over; resumed once, by ``CurlMultiEngine/complete(_:with:)``
    /// (whose `finished` state guards it) or by the submitter when the hand-over is refused.
    var continuation: UnsafeContinuation<HTTPResponse, any Error>?
    /// Set from any thread when the calling task is cancelled.
    let cancelRequested = Atomic<Bool>(false)

    // Curl thread only, from here on.
    var state = State.queued
    /// Where the transfer is in its engine's list of running transfers, while `running`.
    var runningIndex = 0
    var easy: CurlEasyHandle?
    var uploadOffset = 0
    var status = 0
    var headers: [HTTPHeaders.Field] = []
    var responseBody = CurlResponseBuffer()
    var bodyTooLarge = false
    var outOfMemory = false

    /// Validates and prepares a request.
    /// - Throws: `TransportError` with code `invalidRequest` for a URL that is not absolute
    ///   `http`/`https`, a method that is not a token, or a header with a line break or NUL.
    init(request: HTTPRequest, configuration: CurlTransport.Configuration) throws {
        if let checked = request.checkedURLString {
            url = checked
            requestURL = nil
        } else {
            let url = request.url
            let scheme = url.scheme?.lowercased() ?? ""
            guard scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty else {
                throw TransportError(
                    .invalidRequest,
                    "only absolute http and https URLs can be sent, not '\(url.errorSummary)'"
                )
            }
            self.url = url.absoluteString
            requestURL = url
        }
        guard HTTPToken.isToken(request.method.rawValue) else {
            throw TransportError(.invalidRequest, "the method '\(request.method)' is not a valid HTTP token")
        }
        method = request.method
        timeoutMilliseconds = (request.timeout ?? configuration.defaultTimeout).curlMilliseconds
        maxResponseBodySize = configuration.maxResponseBodySize
        let sendsBody =
            request.body != nil || request.method == .post || request.method == .put || request.method == .patch
        body = sendsBody ? (request.body ?? Data()) : nil
        headerList = try CurlTransfer.makeHeaderList(request.headers, sendsBody: sendsBody)
        headers.reserveCapacity(12)
    }

    /// `METHOD scheme://host:port/path` for error messages (no query, no credentials); built only
    /// when needed.
    var summary: String {
        "\(method) \((requestURL ?? URL(string: url)).map(\.errorSummary) ?? "<relative URL>")"
    }

    deinit {
        free(headerList)
    }

    /// The response once the transfer completed without error.
    func takeResponse() -> HTTPResponse {
        HTTPResponse(status: status, headers: HTTPHeaders(headers), body: responseBody.takeData())
    }
}

// MARK: - Response headers

extension CurlTransfer {
    /// Takes one raw header line from libcurl: a status line starts a new response (an interim 1xx
    /// or a redirect is forgotten), a field is appended, a folded line continues the last field.
    func receiveHeaderLine(_ line: UnsafeRawBufferPointer) {
        var end = line.count
        while end > 0, line[end - 1] == 10 || line[end - 1] == 13 { end -= 1 }
        guard end > 0 else { return }
        let bytes = UnsafeRawBufferPointer(rebasing: line[0..<end])
        if bytes.count >= 5, memcmp(bytes.baseAddress!, "HTTP/", 5) == 0 {
            headers.removeAll(keepingCapacity: true)
            status = CurlTransfer.statusCode(inStatusLine: bytes) ?? 0
            return
        }
        if bytes[0] == 32 || bytes[0] == 9 {
            // Obsolete line folding (RFC 9112 §5.2): continues the previous field's value.
            guard !headers.isEmpty else { return }
            headers[headers.count - 1].value += " " + CurlTransfer.decodeTrimmed(bytes, from: 0, to: bytes.count)
            return
        }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return }
        let nameBytes = CurlTransfer.trimmed(bytes, from: 0, to: colon)
        let name = CurlTransfer.decode(nameBytes)
        let value = CurlTransfer.decodeTrimmed(bytes, from: colon + 1, to: bytes.count)
        headers.append(HTTPHeaders.Field(name: name, value: value))
        if CurlTransfer.isContentLength(nameBytes), method != .head, let length = Int(value),
            length > 0, length <= maxResponseBodySize
        {
            if !responseBody.reserve(length) { outOfMemory = true }
        }
    }

    /// Whether `name` is `Content-Length` in any case, compared as bytes before any string is made.
    private static func isContentLength(_ name: UnsafeRawBufferPointer) -> Bool {
        ASCIICaseInsensitive.equal(name, "Content-Length")
    }

    /// The three-digit code of `HTTP/1.1 200 OK` or `HTTP/2 200`.
    private static func statusCode(inStatusLine line: UnsafeRawBufferPointer) -> Int? {
        guard let space = line.firstIndex(of: 32) else { return nil }
        var code = 0
        var digits = 0
        var index = space + 1
        while index < line.count, line[index] >= 48, line[index] <= 57, digits < 3 {
            code = code * 10 + Int(line[index] - 48)
            digits += 1
            index += 1
        }
        return digits == 3 ? code : nil
    }

    /// The bytes in `start..<end` without surrounding spaces and tabs, decoded by ``decode(_:)``.
    private static func decodeTrimmed(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> String {
        decode(trimmed(bytes, from: start, to: end))
    }

    /// The bytes in `start..<end` without surrounding spaces and tabs.
    private static func trimmed(
        _ bytes: UnsafeRawBufferPointer,
        from start: Int,
        to end: Int
    ) -> UnsafeRawBufferPointer {
        var lower = start
        var upper = end
        while lower < upper, bytes[lower] == 32 || bytes[lower] == 9 { lower += 1 }
        while upper > lower, bytes[upper - 1] == 32 || bytes[upper - 1] == 9 { upper -= 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[lower..<upper])
    }

    /// `bytes` as UTF-8 when valid and otherwise as ISO 8859-1 (RFC 9110 obs-text), so no byte is lost.
    ///
    /// Almost every field is ASCII: that is checked in one pass, and such bytes are UTF-8 as they
    /// are; only a field with a byte from 128 up takes the validating path.
    private static func decode(_ bytes: UnsafeRawBufferPointer) -> String {
        if isASCII(bytes) { return String(decoding: bytes, as: UTF8.self) }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }

    /// Whether every byte is below 128 (eight bytes at a time, then the rest).
    private static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var bits: UInt64 = 0
        var index = 0
        while index + 8 <= bytes.count {
            bits |= bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < bytes.count {
            bits |= UInt64(bytes[index])
            index += 1
        }
        return bits & 0x8080_8080_8080_8080 == 0
    }
}

// MARK: - C callbacks

extension CurlTransfer {
    /// `CURLOPT_WRITEFUNCTION`: appends body bytes; returns 0 (failing the transfer) past the limit.
    static let writeCallback: curl_write_callback = { data, size, count, context in
        guard let context, let data else { return 0 }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        let length = size * count
        if transfer.responseBody.count + length > transfer.maxResponseBodySize {
            transfer.bodyTooLarge = true
            return 0
        }
        guard transfer.responseBody.append(data, length: length) else {
            transfer.outOfMemory = true
            return 0
        }
        return length
    }

    /// `CURLOPT_HEADERFUNCTION`: one header line at a time, status lines included.
    static let headerCallback: curl_write_callback = { data, size, count, context in
        guard let context, let data else { return 0 }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        let length = size * count
        transfer.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: length))
        return length
    }

    /// `CURLOPT_READFUNCTION`: copies the next part of the request body into libcurl's buffer.
    static let readCallback: curl_read_callback = { buffer, size, count, context in
        guard let context, let buffer else { return Int(CURL_READFUNC_ABORT) }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        guard let body = transfer.body else { return 0 }
        let length = min(size * count, body.count - transfer.uploadOffset)
        guard length > 0 else { return 0 }
        let start = body.startIndex + transfer.uploadOffset
        body.copyBytes(
            to: UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: UInt8.self),
            from: start..<(start + length)
        )
        transfer.uploadOffset += length
        return length
    }

    /// `CURLOPT_SEEKFUNCTION`: rewinds the body when libcurl sends it again (a reused connection
    /// that turned out closed, or a followed 307/308 redirect).
    static let seekCallback: curl_seek_callback = { context, offset, origin in
        guard let context, origin == SEEK_SET else { return CURL_SEEKFUNC_CANTSEEK }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        guard offset >= 0, Int(offset) <= (transfer.body?.count ?? 0) else { return CURL_SEEKFUNC_FAIL }
        transfer.uploadOffset = Int(offset)
        return CURL_SEEKFUNC_OK
    }
}
