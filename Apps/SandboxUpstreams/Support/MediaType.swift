import HTTPTypes
import ServiceCore

/// A parsed `Content-Type` value (RFC 9110 section 8.3.1): `type/subtype` in lower case and its
/// parameters, names in lower case, quoted values unquoted.
struct MediaType: Equatable {
    /// `type/subtype`, lower-cased, for example `multipart/form-data`.
    var essence: String
    /// The parameters in order.
    var parameters: [(name: String, value: String)]

    /// The value of the parameter `name` (lower case), or `nil`.
    func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name }?.value
    }

    static func == (lhs: MediaType, rhs: MediaType) -> Bool {
        lhs.essence == rhs.essence && lhs.parameters.elementsEqual(rhs.parameters) { $0 == $1 }
    }

    /// Whether `byte` is an RFC 9110 `tchar`.
    static func isTokenByte(_ byte: UInt8) -> Bool { HTTPToken.isTokenCharacter(byte) }

    /// Whether `text` is `type/subtype` with both parts RFC 9110 tokens and nothing else.
    static func isBareMediaType(_ text: String) -> Bool {
        let parts = text.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { !$0.isEmpty && $0.count <= 127 && $0.allSatisfy(isTokenByte) }
    }

    /// Parses a field value; `nil` when it is not `type/subtype *( ; name=value )`.
    init?(_ text: String) {
        var scanner = HeaderValueScanner(text)
        scanner.skipSpace()
        guard let type = scanner.token(), scanner.take(UInt8(ascii: "/")), let subtype = scanner.token(),
            let parameters = scanner.parameters(backslashEscapes: true)
        else { return nil }
        essence = (type + "/" + subtype).lowercased()
        self.parameters = parameters
    }
}
