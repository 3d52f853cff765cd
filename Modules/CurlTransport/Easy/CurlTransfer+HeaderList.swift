import CCurl
import Foundation
import HTTPTypes
import ServiceCore

extension CurlTransfer {
    /// Builds the curl header list: every field exactly as given, plus empty entries that stop
    /// libcurl from adding `Expect: 100-continue`, `Accept: */*` and a form `Content-Type` on its own.
    ///
    /// The whole list is one `malloc` block, freed with `free`: the nodes first, then each line
    /// with its NUL, copied in bulk from the name's and the value's UTF-8 storage. libcurl only
    /// reads a `CURLOPT_HTTPHEADER` list (each node's `data` and `next`); it never frees or keeps
    /// one past the transfer, so the list need not come from `curl_slist_append`, which would
    /// make two allocations per line. The three names libcurl would add are noticed in the same pass.
    /// - Throws: `TransportError` with code `invalidRequest` for a name that is not a token or a
    ///   value with a line break or NUL, or `other` when memory ran out.
    static func makeHeaderList(
        _ headers: HTTPHeaders,
        sendsBody: Bool
    ) throws -> UnsafeMutablePointer<curl_slist>? {
        let fields = headers.fields
        let capacity = fields.count + 3
        let nodeBytes = capacity * MemoryLayout<curl_slist>.stride
        // Each line: "Name: value" and a NUL; each empty entry at most "Content-Type:" and a NUL.
        var textBytes = 3 * 14
        for field in fields { textBytes += field.name.utf8.count + field.value.utf8.count + 3 }
        guard let block = malloc(nodeBytes + textBytes) else {
            throw TransportError(.other, "out of memory building the request headers")
        }
        let nodes = block.bindMemory(to: curl_slist.self, capacity: capacity)
        var text = block + nodeBytes
        var count = 0
        func link(length: Int) {
            text.storeBytes(of: 0, toByteOffset: length, as: UInt8.self)
            let line = text.bindMemory(to: CChar.self, capacity: length + 1)
            (nodes + count).initialize(to: curl_slist(data: line, next: nil))
            if count > 0 { nodes[count - 1].next = nodes + count }
            count += 1
            text += length + 1
        }
        func linkEmpty(_ name: StaticString) {
            text.copyMemory(from: name.utf8Start, byteCount: name.utf8CodeUnitCount)
            link(length: name.utf8CodeUnitCount)
        }
        var found = FoundHeaders()
        do {
            for field in fields { link(length: try writeLine(field, into: text, found: &found)) }
        } catch {
            free(block)
            throw error
        }
        if !found.expect { linkEmpty("Expect:") }
        if !found.accept { linkEmpty("Accept:") }
        if sendsBody, !found.contentType { linkEmpty("Content-Type:") }
        return nodes
    }

    /// Which of the headers libcurl would add on its own the request sets.
    private struct FoundHeaders {
        var expect = false
        var accept = false
        var contentType = false
    }

    /// Checks one field and writes its curl line (without the NUL) at `line`, which has room for
    /// the name, the value and three bytes more; returns the line's length.
    /// - Throws: `TransportError` with code `invalidRequest` for a name that is not a token or a
    ///   value with a line break or NUL.
    private static func writeLine(
        _ field: HTTPHeaders.Field,
        into line: UnsafeMutableRawPointer,
        found: inout FoundHeaders
    ) throws -> Int {
        var name = field.name
        var value = field.value
        return try name.withUTF8 { name in
            guard HTTPToken.isToken(name) else {
                throw TransportError(.invalidRequest, "the header name '\(field.name)' is not a valid HTTP token")
            }
            return try value.withUTF8 { value in
                for byte in value where byte == 0 || byte == 10 || byte == 13 {
                    throw TransportError(
                        .invalidRequest,
                        "the value of header '\(field.name)' contains a line break or NUL byte"
                    )
                }
                if name.count == 6 {
                    if ASCIICaseInsensitive.equal(UnsafeRawBufferPointer(name), "Expect") {
                        found.expect = true
                    } else if ASCIICaseInsensitive.equal(UnsafeRawBufferPointer(name), "Accept") {
                        found.accept = true
                    }
                } else if name.count == 12, ASCIICaseInsensitive.equal(UnsafeRawBufferPointer(name), "Content-Type") {
                    found.contentType = true
                }
                line.copyMemory(from: name.baseAddress!, byteCount: name.count)
                var length = name.count
                var lower = 0
                var upper = value.count
                while lower < upper, value[lower] == 32 || value[lower] == 9 { lower += 1 }
                while upper > lower, value[upper - 1] == 32 || value[upper - 1] == 9 { upper -= 1 }
                // "Name;" is how libcurl is told to send a header with an empty value.
                if lower == upper {
                    line.storeBytes(of: UInt8(ascii: ";"), toByteOffset: length, as: UInt8.self)
                    return length + 1
                }
                line.storeBytes(of: UInt8(ascii: ":"), toByteOffset: length, as: UInt8.self)
                line.storeBytes(of: UInt8(ascii: " "), toByteOffset: length + 1, as: UInt8.self)
                length += 2
                (line + length).copyMemory(from: value.baseAddress! + lower, byteCount: upper - lower)
                return length + upper - lower
            }
        }
    }
}
