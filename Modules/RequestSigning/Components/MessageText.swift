import HTTPTypes
import ServiceCore

/// Text handling shared by the signature base, the signer and the verifier.
enum MessageText {
    /// `value` without leading and trailing spaces and tabs.
    static func trimmed(_ value: String) -> String {
        let utf8 = value.utf8
        guard let first = utf8.first, let last = utf8.last,
            first == 0x20 || first == 0x09 || last == 0x20 || last == 0x09
        else { return value }
        return ByteText.withBytes(value) { bytes in
            var start = 0
            var end = bytes.count
            while start < end && (bytes[start] == 0x20 || bytes[start] == 0x09) { start += 1 }
            while end > start && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
    }

    /// Appends the authority with the host lowercased, surrounding whitespace and the scheme's
    /// default port removed; returns the number of bytes appended.
    @discardableResult
    static func appendNormalizedAuthority(_ authority: String, scheme: String, to output: inout [UInt8]) -> Int {
        ByteText.withBytes(authority) { bytes in
            var start = 0
            var end = bytes.count
            while start < end && (bytes[start] == 0x20 || bytes[start] == 0x09) { start += 1 }
            while end > start && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
            let trimmedBytes = UnsafeBufferPointer(rebasing: bytes[start..<end])
            let length = ByteText.withBytes(scheme) { ByteText.lengthWithoutDefaultPort(trimmedBytes, scheme: $0) }
            ByteText.appendLowercased(UnsafeBufferPointer(rebasing: trimmedBytes[0..<length]), to: &output)
            return length
        }
    }

    /// The normalised authority as a string.
    static func normalizedAuthority(_ authority: String, scheme: String) -> String {
        var bytes: [UInt8] = []
        appendNormalizedAuthority(authority, scheme: scheme, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The first value of a field, by its lowercase name.
    static func firstValue(in headers: HTTPHeaders, lowercaseName: StaticString) -> String? {
        let name = UnsafeBufferPointer(start: lowercaseName.utf8Start, count: lowercaseName.utf8CodeUnitCount)
        for field in headers where ByteText.equalsIgnoringCase(field.name, lowercase: name) { return field.value }
        return nil
    }

    /// The values of a field joined with `", "` (no copy for a single line), or `nil` when absent.
    static func combinedValue(in headers: HTTPHeaders, lowercaseName: StaticString) -> String? {
        let name = UnsafeBufferPointer(start: lowercaseName.utf8Start, count: lowercaseName.utf8CodeUnitCount)
        var combined: String?
        for field in headers where ByteText.equalsIgnoringCase(field.name, lowercase: name) {
            if combined == nil {
                combined = field.value
            } else {
                combined! += ", " + field.value
            }
        }
        return combined
    }

    /// Where `Signature-Input`, `Signature` and `Content-Digest` are among the fields (-1 when
    /// absent), and whether one of them is repeated.
    struct FieldIndices {
        var input: Int
        var signature: Int
        var digest: Int
        var repeated: Bool
    }

    /// Finds the three signature fields in one pass over the fields, without copying a string.
    static func signatureFieldIndices(in fields: UnsafeBufferPointer<HTTPHeaders.Field>) -> FieldIndices {
        var found = FieldIndices(input: -1, signature: -1, digest: -1, repeated: false)
        for index in fields.indices {
            switch fields[index].name.utf8.count {
            case 15 where ByteText.equalsIgnoringCase(fields[index].name, "signature-input"):
                found.repeated = found.repeated || found.input >= 0
                found.input = index
            case 9 where ByteText.equalsIgnoringCase(fields[index].name, "signature"):
                found.repeated = found.repeated || found.signature >= 0
                found.signature = index
            case 14 where ByteText.equalsIgnoringCase(fields[index].name, "content-digest"):
                found.repeated = found.repeated || found.digest >= 0
                found.digest = index
            default:
                continue
            }
        }
        return found
    }

    /// Whether a field is present, by its lowercase name.
    static func contains(_ headers: HTTPHeaders, lowercaseName: StaticString) -> Bool {
        firstValue(in: headers, lowercaseName: lowercaseName) != nil
    }
}
