import CHTTPParser
import Foundation
import HTTPTypes

/// The request a connection is reading, as the parser's callbacks fill it.
struct RequestParts {
    var method: UInt32 = 0
    var major: UInt16 = 1
    var minor: UInt16 = 1
    var keepAlive = false
    /// Whether the parser has read the method (it reports the target only after it).
    var methodKnown = false
    var target: [UInt8] = []
    var headers = ServerHeaders()
    var name: [UInt8] = []
    var value: [UInt8] = []
    var inValue = false
    var inTrailers = false
    var fieldBytes = 0
    var fieldCount = 0
    var hostCount = 0
    var contentLengthCount = 0
    var contentLength: [UInt8] = []
    var transferCodings: [String] = []
    var expect: String?
    var body = Data()

    /// Forgets the request, keeping the storage of the byte buffers the parser's callbacks fill
    /// (target, field name and value), so that a kept-alive connection does not allocate them
    /// again for every request. Field by field: replacing the whole value would copy and destroy
    /// every field through the generic value operations, on every request.
    mutating func reset() {
        method = 0
        major = 1
        minor = 1
        keepAlive = false
        methodKnown = false
        target.removeAll(keepingCapacity: true)
        headers = ServerHeaders()
        name.removeAll(keepingCapacity: true)
        value.removeAll(keepingCapacity: true)
        inValue = false
        inTrailers = false
        fieldBytes = 0
        fieldCount = 0
        hostCount = 0
        contentLengthCount = 0
        contentLength = []
        transferCodings = []
        expect = nil
        body = Data()
    }

    /// The method names by http-parser's number, made once.
    static let methodNames: [String] = (0..<64).map { String(cString: http_method_str(http_method(rawValue: $0))) }

    /// The request handed to the handler. Its fields and body move out of the parts (mutating,
    /// so the parts are not copied out of the connection to make it); the rest is reset after
    /// the answer.
    mutating func takeRequest(remote: RemoteAddress) -> ServerRequest {
        let methodName = Int(method) < Self.methodNames.count ? Self.methodNames[Int(method)] : "GET"
        var fields = ServerHeaders()
        swap(&fields, &headers)
        var bytes = Data()
        swap(&bytes, &body)
        return ServerRequest(
            method: methodName,
            target: String(decoding: target, as: UTF8.self),
            version: minor == 0 ? "HTTP/1.0" : "HTTP/1.1",
            headers: fields,
            body: bytes,
            remote: remote
        )
    }

    /// Ends the field being read (the parser hands a field's name and value in pieces); records
    /// the fields that decide the framing.
    mutating func endField() {
        inValue = false
        defer {
            name.removeAll(keepingCapacity: true)
            value.removeAll(keepingCapacity: true)
        }
        // Trailer fields are read (within the head limits) and dropped.
        guard !inTrailers else { return }
        fieldCount += 1
        while let last = value.last, last == 0x20 || last == 0x09 { value.removeLast() }
        if Self.equals(name, "host") {
            hostCount += 1
        } else if Self.equals(name, "content-length") {
            contentLengthCount += 1
            contentLength = value
        } else if Self.equals(name, "transfer-encoding") {
            transferCodings.append(String(decoding: value, as: UTF8.self))
        } else if Self.equals(name, "expect") {
            expect = String(decoding: value, as: UTF8.self)
        }
        if headers.isEmpty { headers.reserveCapacity(HTTPHeaders.typicalFieldCount) }
        headers.add(name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self))
    }

    /// Whether `bytes` spell `lowercase` in any case.
    static func equals(_ bytes: [UInt8], _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        let expected = UnsafeBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount)
        for index in 0..<bytes.count {
            let byte = bytes[index]
            let lowered = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            if lowered != expected[index] { return false }
        }
        return true
    }

    /// The transfer codings named, in order, lowercased.
    var codings: [Substring] {
        transferCodings.joined(separator: ",").lowercased().split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }.map { Substring($0) }
    }
}
