import HTTPTypes
import ServiceCore

extension SignableMessage {
    /// Writes the cleaned values of every field named by the lowercase bytes `name`, joined with
    /// `", "` (the same values as ``appendCombinedValue(of:in:to:)``).
    static func writeField(_ name: UnsafeBufferPointer<UInt8>, in fields: HTTPHeaders, to writer: inout ByteWriter)
        -> FieldAppend
    {
        fields.fields.withUnsafeBufferPointer { fields in writeField(name, in: fields, to: &writer) }
    }

    /// Writes a field's line value as `writeField(_:in:to:)` does; the error of
    /// a signer or verifier for a field that is absent or holds what a line value cannot.
    static func appendField(_ name: UnsafeBufferPointer<UInt8>, in fields: HTTPHeaders, to writer: inout ByteWriter)
        -> SigningError?
    {
        fields.fields.withUnsafeBufferPointer { fields in appendField(name, in: fields, to: &writer) }
    }

    /// ``appendField(_:in:to:)-(_,HTTPHeaders,_)`` on the fields as they lie in an array.
    static func appendField(
        _ name: UnsafeBufferPointer<UInt8>,
        in fields: UnsafeBufferPointer<HTTPHeaders.Field>,
        to writer: inout ByteWriter
    ) -> SigningError? {
        switch writeField(name, in: fields, to: &writer) {
        case .appended:
            return nil
        case .absent:
            return SigningError(
                .missingComponent, "the message has no header field \"\(String(decoding: name, as: UTF8.self))\"")
        case .invalid(let reason):
            return SigningError(
                .invalidComponent, "the field \"\(String(decoding: name, as: UTF8.self))\" contains \(reason)")
        }
    }

    private static func writeField(
        _ name: UnsafeBufferPointer<UInt8>,
        in fields: UnsafeBufferPointer<HTTPHeaders.Field>,
        to writer: inout ByteWriter
    ) -> FieldAppend {
        var count = 0
        for index in fields.indices where ByteText.equalsIgnoringCase(fields[index].name, lowercase: name) {
            let field = fields[index]
            if count > 0 {
                writer.append(UInt8(ascii: ","))
                writer.append(0x20)
            }
            let problem = writeCleanValue(field.value, to: &writer)
            if let problem { return .invalid(problem) }
            count += 1
        }
        return count > 0 ? .appended : .absent
    }

    /// Writes a field line's value with leading and trailing whitespace removed and obsolete
    /// line folding replaced by one space (RFC 9421 §2.1).
    /// - Returns: `nil`, or what makes the value unusable (a line break that is not a fold, a
    ///   control character).
    static func writeCleanValue(_ value: String, to writer: inout ByteWriter) -> String? {
        ByteText.withBytes(value) { bytes in
            var start = 0
            var end = bytes.count
            while start < end && (bytes[start] == 0x20 || bytes[start] == 0x09) { start += 1 }
            while end > start && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
            let value = UnsafeBufferPointer(rebasing: bytes[start..<end])
            // Word by word first; byte by byte, for tabs, only when that fails.
            if ByteText.isPrintable(value) || value.allSatisfy({ ($0 >= 0x20 || $0 == 0x09) && $0 != 0x7F }) {
                writer.append(value)
                return nil
            }
            var unfolded: [UInt8] = []
            if let reason = appendUnfolded(value, to: &unfolded) { return reason }
            writer.append(unfolded)
            return nil
        }
    }

    /// Calls `body` with the message's request parts as bytes.
    func withParts<R>(_ body: (RequestParts) -> R) -> R {
        // Local copies, so that the closures below capture strings rather than the whole message.
        let method = method
        let scheme = scheme
        let authority = authority
        let path = path
        let query = query
        let rawRequestTarget = rawRequestTarget
        let isResponse = isResponse
        return ByteText.withBytes(method) { method in
            ByteText.withBytes(scheme) { scheme in
                ByteText.withBytes(authority) { authority in
                    ByteText.withBytes(path) { path in
                        Self.withOptionalBytes(query) { query in
                            Self.withOptionalBytes(rawRequestTarget) { target in
                                body(
                                    RequestParts(
                                        method: method, scheme: scheme, authority: authority, path: path, query: query,
                                        requestTarget: target, isResponse: isResponse))
                            }
                        }
                    }
                }
            }
        }
    }

    private static func withOptionalBytes<R>(_ text: String?, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
        guard let text else { return body(nil) }
        return ByteText.withBytes(text) { body($0) }
    }
}
