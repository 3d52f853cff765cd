/// Reads one `Signature-Input` member, `label=("name" ...);key=value...`, written exactly as
/// RFC 8941 serialises it, into byte ranges: the covered components and the parameters.
///
/// Because the member is in its serialised form, its bytes after `label=` are the value of the
/// base's `@signature-params` line as they stand. In ``Mode/received`` mode it reads a field as
/// it arrived and refuses (returns `false`) anything it does not read exactly: other spellings,
/// component parameters, unknown or repeated parameters, escapes. The verifier then has the
/// structured-field parser normalise the member and reads the result in ``Mode/serialized``
/// mode, which accepts every bare item the serialiser writes.
struct SignatureInputReader {
    /// How much of RFC 8941 the reader accepts.
    enum Mode {
        /// A field as received: only the simple form the signer writes.
        case received
        /// A member written by ``SFSerializer``: any bare item, component parameters, escapes.
        case serialized
    }

    /// A covered component, kept small (32-bit offsets) so that the verifier's buffer of them
    /// stays within what `withUnsafeTemporaryAllocation` puts on the stack without asking.
    struct Item {
        private var nameStart: Int32
        private var nameEnd: Int32
        private var textEnd: Int32
        /// ``componentBit(_:)`` of the name for an item without parameters, else 0.
        var bit: UInt32
        /// Whether the item has no parameters and is a well-known derived component or a plain
        /// lowercase field name, so its value can be written from the name's bytes alone.
        var isSimple: Bool

        init(text: Range<Int>, name: Range<Int>, bit: UInt32, isSimple: Bool) {
            nameStart = Int32(truncatingIfNeeded: name.lowerBound)
            nameEnd = Int32(truncatingIfNeeded: name.upperBound)
            textEnd = Int32(truncatingIfNeeded: text.upperBound)
            self.bit = bit
            self.isSimple = isSimple
        }

        /// The name between the quotes.
        var name: Range<Int> { Int(nameStart)..<Int(nameEnd) }
        /// The whole item, `"name";params`, as it appears in the base.
        var text: Range<Int> { Int(nameStart) - 1..<Int(textEnd) }
    }

    /// A signature parameter.
    struct Parameter {
        /// The parameters the verifier knows, and any other.
        enum Kind: UInt8 { case created, expires, nonce, keyID, algorithm, tag, other }
        var kind: Kind
        /// The key.
        var key: Range<Int>
        /// Between the quotes for a string; the whole value otherwise.
        var value: Range<Int>
        /// The integer, when the value is one.
        var number: Int64
        var isInteger: Bool
        var isString: Bool
        /// Whether a string holds `\"` or `\\`.
        var escaped: Bool
    }

    /// Limits that never bind, for a member the parser already held to the configured ones.
    static let unlimited = SFParser.Limits(
        maximumLength: .max, maximumMembers: .max, maximumInnerListItems: .max, maximumParameters: .max)

    let bytes: UnsafeBufferPointer<UInt8>
    let mode: Mode
    let limits: SFParser.Limits
    /// ``byteClasses``.
    let classes: UnsafeBufferPointer<UInt8>
    var index = 0

    /// Reads the member that starts after `label=` (at `valueStart`) and fills `items` and
    /// `parameters`; returns `false` when the bytes are not a member this mode reads, or more
    /// items or parameters than the buffers hold or the limits allow.
    static func read(
        _ bytes: UnsafeBufferPointer<UInt8>,
        valueStart: Int,
        mode: Mode,
        limits: SFParser.Limits,
        items: UnsafeMutableBufferPointer<Item>,
        itemCount: inout Int,
        parameters: UnsafeMutableBufferPointer<Parameter>,
        parameterCount: inout Int
    ) -> Bool {
        guard bytes.count <= limits.maximumLength, bytes.count < Int(Int32.max), limits.maximumMembers >= 1 else {
            return false
        }
        return byteClasses.withUnsafeBufferPointer { classes in
            // One reader per mode, each with its mode fixed, so the checks of the other fold away.
            switch mode {
            case .received:
                var reader = SignatureInputReader(
                    bytes: bytes, mode: .received, limits: limits, classes: classes, index: valueStart)
                return reader.member(
                    items: items, itemCount: &itemCount, parameters: parameters, count: &parameterCount)
            case .serialized:
                var reader = SignatureInputReader(
                    bytes: bytes, mode: .serialized, limits: limits, classes: classes, index: valueStart)
                return reader.member(
                    items: items, itemCount: &itemCount, parameters: parameters, count: &parameterCount)
            }
        }
    }

    /// The byte at ``index``, or 0 (which no rule accepts) at the end.
    @inline(__always)
    private var current: UInt8 { index < bytes.count ? bytes[index] : 0 }

    @inline(__always)
    private func isClass(_ byte: UInt8, _ mask: UInt8) -> Bool { classes[Int(byte)] & mask != 0 }

    @inline(__always)
    private mutating func member(
        items: UnsafeMutableBufferPointer<Item>,
        itemCount: inout Int,
        parameters: UnsafeMutableBufferPointer<Parameter>,
        count parameterCount: inout Int
    ) -> Bool {
        guard current == UInt8(ascii: "(") else { return false }
        index += 1
        if current != UInt8(ascii: ")") {
            while true {
                guard itemCount < items.count, itemCount < limits.maximumInnerListItems, let item = item() else {
                    return false
                }
                items[itemCount] = item
                itemCount += 1
                if current == UInt8(ascii: ")") { break }
                guard current == 0x20 else { return false }
                index += 1
            }
        }
        index += 1
        var seen: UInt8 = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: ";"), parameterCount < parameters.count,
                parameterCount < limits.maximumParameters, let parameter = parameter()
            else { return false }
            if parameter.kind != .other {
                let bit: UInt8 = 1 << parameter.kind.rawValue
                guard seen & bit == 0 else { return false }
                seen |= bit
            }
            parameters[parameterCount] = parameter
            parameterCount += 1
        }
        return true
    }

    /// `"name"` with, in serialized mode, its parameters.
    @inline(__always)
    private mutating func item() -> Item? {
        guard current == UInt8(ascii: "\"") else { return nil }
        index += 1
        let nameStart = index
        if mode == .received {
            while isClass(current, Self.componentNameClass) { index += 1 }
        } else {
            guard skipStringContent() else { return nil }
        }
        guard current == UInt8(ascii: "\""), index > nameStart else { return nil }
        let name = nameStart..<index
        index += 1
        var hasParameters = false
        while current == UInt8(ascii: ";") {
            guard mode == .serialized else { return nil }
            index += 1
            guard key() != nil else { return nil }
            if current == UInt8(ascii: "=") {
                index += 1
                guard bareItem() != nil else { return nil }
            }
            hasParameters = true
        }
        let nameBytes = UnsafeBufferPointer(rebasing: bytes[name])
        let bit = hasParameters ? 0 : Self.componentBit(nameBytes)
        let isSimple = !hasParameters && (bit != 0 || Self.isPlainFieldName(nameBytes))
        guard isSimple || mode == .serialized else { return nil }
        return Item(text: nameStart - 1..<index, name: name, bit: bit, isSimple: isSimple)
    }

    /// `;key=value`, or `;key` (a boolean true) in serialized mode.
    @inline(__always)
    private mutating func parameter() -> Parameter? {
        index += 1
        guard let key = key() else { return nil }
        let kind = Self.parameterKind(UnsafeBufferPointer(rebasing: bytes[key]))
        guard kind != .other || mode == .serialized else { return nil }
        guard current == UInt8(ascii: "=") else {
            guard mode == .serialized else { return nil }
            return Parameter(
                kind: kind, key: key, value: index..<index, number: 0, isInteger: false, isString: false,
                escaped: false)
        }
        index += 1
        guard let value = bareItem() else { return nil }
        if mode == .received {
            // The simple forms only: integers for the times, plain strings for the rest.
            let expectsInteger = kind == .created || kind == .expires
            guard expectsInteger ? value.isInteger : value.isString && !value.escaped else { return nil }
        }
        return Parameter(
            kind: kind, key: key, value: value.range, number: value.number, isInteger: value.isInteger,
            isString: value.isString, escaped: value.escaped)
    }

    /// A lowercase key.
    @inline(__always)
    private mutating func key() -> Range<Int>? {
        let start = index
        guard isClass(current, Self.keyStartClass) else { return nil }
        index += 1
        while isClass(current, Self.keyClass) { index += 1 }
        return start..<index
    }

    private struct Value {
        var range: Range<Int>
        var number: Int64 = 0
        var isInteger = false
        var isString = false
        var escaped = false
    }

    /// A bare item in its serialised form. In received mode only integers without leading zeros
    /// or a minus sign and strings are read; everything else is left to the parser.
    @inline(__always)
    private mutating func bareItem() -> Value? {
        let first = current
        let start = index
        if first == UInt8(ascii: "\"") {
            index += 1
            let contentStart = index
            let plain = skipStringContent()
            guard current == UInt8(ascii: "\"") else { return nil }
            let content = contentStart..<index
            index += 1
            return Value(range: content, isString: true, escaped: !plain)
        }
        if isClass(first, Self.digitClass) || (first == UInt8(ascii: "-") && mode == .serialized) {
            if first == UInt8(ascii: "-") { index += 1 }
            let digitsStart = index
            var number: Int64 = 0
            while isClass(current, Self.digitClass), index - digitsStart < 15 {
                number = number &* 10 &+ Int64(current &- UInt8(ascii: "0"))
                index += 1
            }
            guard index > digitsStart, !isClass(current, Self.digitClass) else { return nil }
            if current == UInt8(ascii: ".") {
                guard mode == .serialized else { return nil }
                index += 1
                while isClass(current, Self.digitClass) { index += 1 }
                return Value(range: start..<index)
            }
            if mode == .received && bytes[digitsStart] == UInt8(ascii: "0") && index - digitsStart > 1 { return nil }
            return Value(range: start..<index, number: first == UInt8(ascii: "-") ? -number : number, isInteger: true)
        }
        guard mode == .serialized else { return nil }
        if first == UInt8(ascii: ":") {
            index += 1
            while index < bytes.count && current != UInt8(ascii: ":") { index += 1 }
            guard current == UInt8(ascii: ":") else { return nil }
            index += 1
        } else if first == UInt8(ascii: "?") {
            index += 2
            guard index <= bytes.count else { return nil }
        } else if SFCharacters.isLetter(first) || first == UInt8(ascii: "*") {
            index += 1
            while index < bytes.count,
                SFCharacters.isTokenCharacter(current) || current == UInt8(ascii: ":") || current == UInt8(ascii: "/")
            {
                index += 1
            }
        } else {
            return nil
        }
        return Value(range: start..<index)
    }

    /// Moves to the string's closing quote (or where it stops being a string); returns `true`
    /// when it held no escape. In received mode an escape stops it (and the caller refuses it).
    @inline(__always)
    private mutating func skipStringContent() -> Bool {
        var plain = true
        while true {
            index = ByteText.endOfPlainString(bytes, from: index)
            guard current == UInt8(ascii: "\\"), mode == .serialized, index + 1 < bytes.count else { return plain }
            plain = false
            index += 2
        }
    }

    /// The text of a string parameter with its escapes removed.
    static func unescaped(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count)
        var escape = false
        for byte in bytes {
            if !escape && byte == UInt8(ascii: "\\") {
                escape = true
                continue
            }
            escape = false
            text.append(byte)
        }
        return String(decoding: text, as: UTF8.self)
    }

    // MARK: Names

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

    /// The derived component of a ``componentBit(_:)`` bit, `nil` for `content-digest`.
    static func derived(bit: UInt32) -> ComponentIdentifier.Derived? {
        switch bit {
        case 1 << 0: .method
        case 1 << 1: .authority
        case 1 << 2: .path
        case 1 << 3: .query
        case 1 << 4: .scheme
        case 1 << 5: .targetURI
        case 1 << 6: .requestTarget
        default: nil
        }
    }

    /// Whether the name is a field name without uppercase letters.
    static func isPlainFieldName(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !name.isEmpty else { return false }
        for byte in name where !SFCharacters.isFieldNameCharacter(byte) || (byte >= 0x41 && byte <= 0x5A) {
            return false
        }
        return true
    }

    private static func parameterKind(_ name: UnsafeBufferPointer<UInt8>) -> Parameter.Kind {
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
        return .other
    }

    private static let componentNameClass: UInt8 = 1
    private static let digitClass: UInt8 = 4
    private static let keyStartClass: UInt8 = 8
    private static let keyClass: UInt8 = 16

    /// The classes of each byte: component-name byte of the signer's form (lowercase letters,
    /// digits, `@`, `-`, `_`, `.`), digit, first byte of a key (lowercase letter, `*`), key byte.
    private static let byteClasses: [UInt8] = (0..<256).map { value in
        let byte = UInt8(value)
        let lowercase = byte >= 0x61 && byte <= 0x7A
        let digit = byte >= 0x30 && byte <= 0x39
        var classes: UInt8 = 0
        if lowercase || digit || byte == UInt8(ascii: "@") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: ".")
        {
            classes |= componentNameClass
        }
        if digit { classes |= digitClass }
        if lowercase || byte == UInt8(ascii: "*") { classes |= keyStartClass }
        if SFCharacters.isKeyCharacter(byte) { classes |= keyClass }
        return classes
    }
}
