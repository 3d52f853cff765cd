import CHTTPParser
import Foundation
import HTTP1Parsing
import HTTPTypes

extension ServerConnection {
    /// Adds `length` bytes to the field bytes of the request; 1 (stop) past the limit.
    func countFieldBytes(_ length: Int) -> Int32 {
        request.fieldBytes += length
        guard request.fieldBytes <= core.configuration.maxHeaderBytes else {
            refusal = Refusal(
                reason: .headersTooLarge, status: 431,
                detail: "The request's header fields exceed \(core.configuration.maxHeaderBytes) bytes.")
            return 1
        }
        return 0
    }

    /// The refusal for too many fields, if so.
    func checkFieldLimits() -> Refusal? {
        let limit = core.configuration.maxHeaderCount
        guard request.fieldCount > limit else { return nil }
        return Refusal(
            reason: .headersTooLarge, status: 431, detail: "The request has more than \(limit) header fields.")
    }

    /// Checks a complete head (RFC 9112 and the server's limits); the refusal for the first rule it breaks.
    func checkHead() -> Refusal? {
        let major = parser.state.pointee.http_major
        let minor = parser.state.pointee.http_minor
        request.major = major
        request.minor = minor
        request.method = parser.state.pointee.method
        guard major == 1 && minor <= 1 else {
            return Refusal(
                reason: .unsupportedVersion, status: 505, detail: "Only HTTP/1.1 and HTTP/1.0 are served.")
        }
        if minor == 1 && request.hostCount != 1 {
            return .malformed("An HTTP/1.1 request must carry exactly one Host header field.")
        }
        if request.hostCount > 1 { return .malformed("The request has more than one Host header field.") }
        if let refusal = checkFraming() { return refusal }
        if let refusal = checkTarget() { return refusal }
        // An empty Expect asks for nothing.
        if let expect = request.expect, !expect.isEmpty, !expect.equalsIgnoringASCIICase("100-continue") {
            return Refusal(
                reason: .expectationFailed, status: 417, detail: "The only expectation served is 100-continue.")
        }
        return nil
    }

    private func checkFraming() -> Refusal? {
        if request.contentLengthCount > 1 {
            return .malformed("The request has more than one Content-Length header field.")
        }
        if request.contentLengthCount == 1 {
            let digits = request.contentLength
            guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                return .malformed("The Content-Length header field is not a decimal number.")
            }
            let length = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
            let limit = core.configuration.maxBodyBytes
            if length > limit {
                return Refusal(
                    reason: .bodyTooLarge, status: 413,
                    detail: "The request body is larger than the server accepts (\(limit) bytes).")
            }
        }
        if !request.transferCodings.isEmpty {
            if request.contentLengthCount > 0 {
                return .malformed("The request has both Content-Length and Transfer-Encoding.")
            }
            if request.minor == 0 { return .malformed("An HTTP/1.0 request must not carry Transfer-Encoding.") }
            return transferCodingRefusal()
        }
        return nil
    }

    /// The refusal for the request's transfer codings unless they are exactly `chunked`.
    func transferCodingRefusal() -> Refusal? {
        let codings = request.codings
        if codings.contains(where: { $0 != "chunked" }) {
            return Refusal(
                reason: .unsupportedCoding, status: 501, detail: "The only transfer coding accepted is chunked.")
        }
        if codings.count != 1 { return .malformed("The transfer codings must be exactly one chunked.") }
        return nil
    }

    /// Checks the request-target's form; an absolute-form target is replaced by its path and query.
    private func checkTarget() -> Refusal? {
        let target = request.target
        guard let first = target.first else { return .malformed("The request-target is empty.") }
        if request.method == HTTP_CONNECT.rawValue {
            return Refusal(reason: .unknownMethod, status: 501, detail: "CONNECT is not served.")
        }
        if target.contains(UInt8(ascii: "#")) { return .malformed("The request-target must not hold a fragment.") }
        if first == UInt8(ascii: "*") {
            guard target.count == 1, request.method == HTTP_OPTIONS.rawValue else {
                return .malformed("The asterisk-form request-target is only for OPTIONS.")
            }
            return nil
        }
        if first != UInt8(ascii: "/") {
            // Absolute-form (RFC 9112 section 3.2.2): served by its path; the authority must be there.
            let text = String(decoding: target, as: UTF8.self)
            let lowered = text.lowercased()
            let schemeLength = lowered.hasPrefix("http://") ? 7 : lowered.hasPrefix("https://") ? 8 : 0
            guard schemeLength > 0 else { return .malformed("The request-target must be in origin-form.") }
            let rest = target[schemeLength...]
            let authorityEnd = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? rest.endIndex
            guard authorityEnd > rest.startIndex else {
                return .malformed("The absolute-form request-target has no authority.")
            }
            var path = Array(rest[authorityEnd...])
            if path.first != UInt8(ascii: "/") { path.insert(UInt8(ascii: "/"), at: 0) }
            request.target = path
        }
        if let mark = request.target.firstIndex(of: UInt8(ascii: "?")) {
            var parameters = 0
            var inPiece = false
            for byte in request.target[(mark + 1)...] {
                if byte == UInt8(ascii: "&") {
                    inPiece = false
                } else if !inPiece {
                    inPiece = true
                    parameters += 1
                }
            }
            let limit = core.configuration.maxQueryParameters
            if parameters > limit {
                return Refusal(
                    reason: .tooManyParameters, status: 400,
                    detail: "The query has more than \(limit) parameters (maxQueryParameters).")
            }
        }
        return nil
    }

    /// The head is accepted: the body (if any) comes next; `100 Continue` goes out when asked.
    func headComplete() {
        phase = .body
        let chunked = parser.state.pointee.flags & UInt32(F_CHUNKED.rawValue) != 0
        let length = parser.state.pointee.content_length
        let bodyComes = chunked || (length > 0 && length != UInt64.max)
        // Without a body the request completes in this same parse, before any sweep can look
        // at the phase's clock: it is read only when a body comes.
        if bodyComes { phaseStart = .now }
        if bodyComes, request.minor == 1, request.expect?.equalsIgnoringASCIICase("100-continue") == true {
            output.append(contentsOf: "HTTP/1.1 100 Continue\r\n\r\n".utf8)
            flush()
        }
        if !chunked, bodyComes, length <= UInt64(core.configuration.maxBodyBytes) {
            request.body.reserveCapacity(Int(length))
        }
    }

    /// The one answer for a parser error.
    func parserRefusal(_ error: http_errno) -> Refusal {
        switch error {
        case HPE_HEADER_OVERFLOW:
            return Refusal(reason: .headersTooLarge, status: 431, detail: "The request head is too large.")
        case HPE_INVALID_METHOD:
            if scanner.methodIsToken {
                return Refusal(reason: .unknownMethod, status: 501, detail: "The request method is not served.")
            }
            return .malformed("The request method is not a token.")
        case HPE_INVALID_TRANSFER_ENCODING:
            if request.inValue { request.endField() }
            return transferCodingRefusal() ?? .malformed("The transfer codings must end with chunked.")
        case HPE_INVALID_CONTENT_LENGTH:
            return .malformed("The Content-Length header field is not a decimal number.")
        case HPE_UNEXPECTED_CONTENT_LENGTH:
            return .malformed(
                "The request has more than one Content-Length, or Content-Length with Transfer-Encoding.")
        case HPE_INVALID_VERSION:
            return .malformed("The request line does not end in an HTTP version.")
        default:
            return .malformed("The request is malformed (\(HTTP1Parser.describe(error))).")
        }
    }
}
