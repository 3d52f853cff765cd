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
            let problem: String? = ByteText.withBytes(field.value) { bytes in
                var start = 0
                var end = bytes.count
                while start < end && (bytes[start] == 0x20 || bytes[start] == 0x09) { start += 1 }
                while end > start && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
                let value = UnsafeBufferPointer(rebasing: bytes[start..<end])
                var clean = true
                for byte in value { clean = clean && (byte >= 0x20 || byte == 0x09) && byte != 0x7F }
                if clean {
                    writer.append(value)
                    return nil
                }
                var unfolded: [UInt8] = []
                if let reason = appendUnfolded(value, to: &unfolded) { return reason }
                writer.append(unfolded)
                return nil
            }
            if let problem { return .invalid(problem) }
            count += 1
        }
        return count > 0 ? .appended : .absent
    }

    /// Writes the value of a derived request component named by `name` (without parameters),
    /// as ``appendValue(of:to:)`` would; returns `false` for a name it does not handle or a value
    /// that is invalid (the caller then takes the reference path).
    func writeDerived(_ name: UnsafeBufferPointer<UInt8>, to writer: inout ByteWriter) -> Bool {
        guard !isResponse else { return false }
        if ByteText.equals(name, "@method" as StaticString) { return writeVisible(method, to: &writer) }
        if ByteText.equals(name, "@authority" as StaticString) { return writeAuthority(to: &writer) }
        if ByteText.equals(name, "@path" as StaticString) {
            return writeVisible(path.isEmpty ? "/" : path, to: &writer)
        }
        if ByteText.equals(name, "@query" as StaticString) {
            writer.append(UInt8(ascii: "?"))
            guard let query else { return true }
            return writeVisible(query, to: &writer)
        }
        if ByteText.equals(name, "@scheme" as StaticString) {
            ByteText.withBytes(scheme) { writer.appendLowercased($0) }
            return true
        }
        if ByteText.equals(name, "@target-uri" as StaticString) {
            ByteText.withBytes(scheme) { writer.appendLowercased($0) }
            writer.append("://")
            guard writeAuthority(to: &writer), writeVisible(path.isEmpty ? "/" : path, to: &writer) else {
                return false
            }
            guard let query else { return true }
            writer.append(UInt8(ascii: "?"))
            return writeVisible(query, to: &writer)
        }
        if ByteText.equals(name, "@request-target" as StaticString) { return writeVisible(requestTarget, to: &writer) }
        return false
    }

    private func writeVisible(_ text: String, to writer: inout ByteWriter) -> Bool {
        ByteText.withBytes(text) { bytes in
            guard ByteText.isVisible(bytes) else { return false }
            writer.append(bytes)
            return true
        }
    }

    private func writeAuthority(to writer: inout ByteWriter) -> Bool {
        ByteText.withBytes(authority) { bytes in
            var start = 0
            var end = bytes.count
            while start < end && (bytes[start] == 0x20 || bytes[start] == 0x09) { start += 1 }
            while end > start && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
            let trimmed = UnsafeBufferPointer(rebasing: bytes[start..<end])
            let length = ByteText.withBytes(scheme) { ByteText.lengthWithoutDefaultPort(trimmed, scheme: $0) }
            let value = UnsafeBufferPointer(rebasing: trimmed[0..<length])
            guard length > 0, ByteText.isVisible(value) else { return false }
            writer.appendLowercased(value)
            return true
        }
    }
}
