import Foundation

extension SignatureVerifier {
    /// Reads `Signature-Input` when it has exactly the shape ``RequestSigner`` writes: one member,
    /// the configured label, an inner list of quoted component names (lowercase letters, digits,
    /// `@`, `-`, `_`, `.`) separated by single spaces, then `;key=value` parameters among
    /// `created`, `expires` (1 to 15 digits), `nonce`, `keyid`, `alg`, `tag` (quoted, no escapes),
    /// each at most once, and nothing after. Everything it accepts is a valid RFC 8941 dictionary
    /// read the same way by the general scanner; it returns `false` for anything else, which the
    /// general scanner then reads.
    static func scanCanonicalInput(
        _ input: UnsafeBufferPointer<UInt8>,
        label: UnsafeBufferPointer<UInt8>,
        limits: SFParser.Limits,
        names: UnsafeMutableBufferPointer<Range<Int>>,
        nameCount: inout Int,
        parameters: UnsafeMutableBufferPointer<FastParameter>,
        parameterCount: inout Int
    ) -> Bool {
        byteClasses.withUnsafeBufferPointer { classes in
            scanCanonicalInput(
                input, label: label, limits: limits, classes: classes, names: names, nameCount: &nameCount,
                parameters: parameters, parameterCount: &parameterCount)
        }
    }

    private static func scanCanonicalInput(
        _ input: UnsafeBufferPointer<UInt8>,
        label: UnsafeBufferPointer<UInt8>,
        limits: SFParser.Limits,
        classes: UnsafeBufferPointer<UInt8>,
        names: UnsafeMutableBufferPointer<Range<Int>>,
        nameCount: inout Int,
        parameters: UnsafeMutableBufferPointer<FastParameter>,
        parameterCount: inout Int
    ) -> Bool {
        let count = input.count
        guard count <= limits.maximumLength, limits.maximumMembers >= 1, isKey(label), count > label.count + 2,
            let bytes = input.baseAddress, let table = classes.baseAddress
        else {
            return false
        }
        for offset in 0..<label.count where bytes[offset] != label[offset] { return false }
        var index = label.count
        guard bytes[index] == UInt8(ascii: "="), bytes[index + 1] == UInt8(ascii: "(") else { return false }
        index += 2
        guard index < count else { return false }
        if bytes[index] != UInt8(ascii: ")") {
            while true {
                guard index < count, bytes[index] == UInt8(ascii: "\"") else { return false }
                index += 1
                let start = index
                while index < count, table[Int(bytes[index])] & componentNameClass != 0 { index += 1 }
                guard index < count, bytes[index] == UInt8(ascii: "\""), index > start,
                    nameCount < names.count, nameCount < limits.maximumInnerListItems
                else { return false }
                names[nameCount] = start..<index
                nameCount += 1
                index += 1
                guard index < count else { return false }
                if bytes[index] == UInt8(ascii: ")") { break }
                guard bytes[index] == 0x20 else { return false }
                index += 1
            }
        }
        index += 1
        var seen: UInt8 = 0
        while index < count {
            guard bytes[index] == UInt8(ascii: ";") else { return false }
            index += 1
            let keyStart = index
            while index < count, table[Int(bytes[index])] & lowercaseClass != 0 { index += 1 }
            let key = keyStart..<index
            guard index < count, bytes[index] == UInt8(ascii: "="), parameterCount < parameters.count,
                parameterCount < limits.maximumParameters, let kind = parameterKind(input, key)
            else { return false }
            index += 1
            var number: Int64 = 0
            var text = 0..<0
            switch kind {
            case .created, .expires:
                let start = index
                while index < count, table[Int(bytes[index])] & digitClass != 0 {
                    number = number * 10 + Int64(bytes[index] &- UInt8(ascii: "0"))
                    index += 1
                    guard index - start <= 15 else { return false }
                }
                // No leading zeros: the member must be its own serialisation.
                guard index > start, bytes[start] != UInt8(ascii: "0") || index - start == 1 else { return false }
            case .nonce, .keyID, .algorithm, .tag:
                guard index < count, bytes[index] == UInt8(ascii: "\"") else { return false }
                index += 1
                let start = index
                while index < count, table[Int(bytes[index])] & plainStringClass != 0 { index += 1 }
                guard index < count, bytes[index] == UInt8(ascii: "\"") else { return false }
                text = start..<index
                index += 1
            }
            let bit: UInt8 = 1 << kind.rawValue
            guard seen & bit == 0 else { return false }
            seen |= bit
            parameters[parameterCount] = FastParameter(kind: kind, key: key, number: number, text: text)
            parameterCount += 1
        }
        return true
    }

    /// Decodes a `Signature` field of exactly one member, `label=:base64:` with padded standard
    /// base64, into `output`; `nil` for anything else.
    static func canonicalSignature(
        _ field: UnsafeBufferPointer<UInt8>,
        label: UnsafeBufferPointer<UInt8>,
        limits: SFParser.Limits,
        into output: UnsafeMutableRawBufferPointer
    ) -> Int? {
        let count = field.count
        guard count <= limits.maximumLength, count <= label.count + 3 + 88, count >= label.count + 3 + 4,
            isKey(label)
        else { return nil }
        for offset in 0..<label.count where field[offset] != label[offset] { return nil }
        guard field[label.count] == UInt8(ascii: "="), field[label.count + 1] == UInt8(ascii: ":"),
            field[count - 1] == UInt8(ascii: ":")
        else { return nil }
        return Base64.decodeCanonical(UnsafeBufferPointer(rebasing: field[label.count + 2..<count - 1]), into: output)
    }

    /// Checks a `Content-Digest` field of exactly one member, `sha-256=:base64:` or
    /// `sha-512=:base64:`, against the body; `nil` when the field has another shape.
    static func canonicalDigestMatches(_ field: UnsafeBufferPointer<UInt8>, body: Data?) -> Bool? {
        let count = field.count
        guard count >= 13, count <= 9 + 88 + 1, field[7] == UInt8(ascii: "="), field[8] == UInt8(ascii: ":"),
            field[count - 1] == UInt8(ascii: ":")
        else { return nil }
        let name = UnsafeBufferPointer(rebasing: field[0..<7])
        let algorithm: DigestAlgorithm
        if ByteText.equals(name, "sha-256" as StaticString) {
            algorithm = .sha256
        } else if ByteText.equals(name, "sha-512" as StaticString) {
            algorithm = .sha512
        } else {
            return nil
        }
        return withUnsafeTemporaryAllocation(byteCount: 128, alignment: 8) { buffer -> Bool? in
            let expected = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<64])
            let actual = UnsafeMutableRawBufferPointer(rebasing: buffer[64..<128])
            guard
                let length = Base64.decodeCanonical(UnsafeBufferPointer(rebasing: field[9..<count - 1]), into: expected)
            else { return nil }
            guard length == algorithm.digestLength else { return false }
            let hashed = (body ?? Data()).withUnsafeBytes { algorithm.hash($0, into: actual) }
            return hashed && memcmp(expected.baseAddress!, actual.baseAddress!, length) == 0
        }
    }

    /// The bit of `content-digest` in ``componentBit(_:)``.
    static let contentDigestBit: UInt32 = 1 << 7

    /// A bit for each well-known component name without parameters (`@method`, `@authority`,
    /// `@path`, `@query`, `@scheme`, `@target-uri`, `@request-target`, `content-digest`), 0 for
    /// any other name.
    static func componentBit(_ name: UnsafeBufferPointer<UInt8>) -> UInt32 {
        switch name.count {
        case 5: return ByteText.equals(name, "@path" as StaticString) ? 1 << 2 : 0
        case 6: return ByteText.equals(name, "@query" as StaticString) ? 1 << 3 : 0
        case 7:
            if ByteText.equals(name, "@method" as StaticString) { return 1 << 0 }
            return ByteText.equals(name, "@scheme" as StaticString) ? 1 << 4 : 0
        case 10: return ByteText.equals(name, "@authority" as StaticString) ? 1 << 1 : 0
        case 11: return ByteText.equals(name, "@target-uri" as StaticString) ? 1 << 5 : 0
        case 14: return ByteText.equals(name, "content-digest" as StaticString) ? contentDigestBit : 0
        case 15: return ByteText.equals(name, "@request-target" as StaticString) ? 1 << 6 : 0
        default: return 0
        }
    }

    /// The bits of the required components, or `nil` when one has no bit.
    static func requiredBits(_ requirements: [FastRequirement]?) -> UInt32? {
        guard let requirements else { return nil }
        var bits: UInt32 = 0
        for requirement in requirements {
            let bit = requirement.name.withUnsafeBufferPointer { componentBit($0) }
            guard bit != 0 else { return nil }
            bits |= bit
        }
        return bits
    }

    /// Whether `bytes` is a structured-field key: a lowercase letter or `*`, then lowercase
    /// letters, digits, `_`, `-`, `.`, `*`.
    private static func isKey(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, (first >= 0x61 && first <= 0x7A) || first == UInt8(ascii: "*") else {
            return false
        }
        for byte in bytes {
            let valid =
                (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "*")
            guard valid else { return false }
        }
        return true
    }

    private static let componentNameClass: UInt8 = 1
    private static let plainStringClass: UInt8 = 2
    private static let digitClass: UInt8 = 4
    private static let lowercaseClass: UInt8 = 8

    /// The classes of each byte: component-name byte (lowercase letters, digits, `@`, `-`, `_`,
    /// `.`), unescaped string byte (visible ASCII and space but `"` and `\`), digit, lowercase
    /// letter.
    private static let byteClasses: [UInt8] = (0..<256).map { value in
        let byte = UInt8(value)
        var classes: UInt8 = 0
        let lowercase = byte >= 0x61 && byte <= 0x7A
        let digit = byte >= 0x30 && byte <= 0x39
        if lowercase || digit || byte == UInt8(ascii: "@") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: ".")
        {
            classes |= componentNameClass
        }
        if byte >= 0x20 && byte <= 0x7E && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
            classes |= plainStringClass
        }
        if digit { classes |= digitClass }
        if lowercase { classes |= lowercaseClass }
        return classes
    }

    private static func parameterKind(_ input: UnsafeBufferPointer<UInt8>, _ key: Range<Int>) -> FastParameter.Kind? {
        let name = UnsafeBufferPointer(rebasing: input[key])
        switch name.count {
        case 7:
            if ByteText.equals(name, "created" as StaticString) { return .created }
            if ByteText.equals(name, "expires" as StaticString) { return .expires }
        case 5:
            if ByteText.equals(name, "nonce" as StaticString) { return .nonce }
            if ByteText.equals(name, "keyid" as StaticString) { return .keyID }
        case 3:
            if ByteText.equals(name, "alg" as StaticString) { return .algorithm }
            if ByteText.equals(name, "tag" as StaticString) { return .tag }
        default:
            break
        }
        return nil
    }
}
