/// The RFC 8941 §4.1 serialisation algorithms, appending ASCII bytes to a buffer.
enum SFSerializer {
    static let largestInteger: Int64 = 999_999_999_999_999

    static func appendDictionary(_ dictionary: SFDictionary, to output: inout [UInt8]) throws(StructuredFieldError) {
        var first = true
        for entry in dictionary.entries {
            if !first {
                output.append(UInt8(ascii: ","))
                output.append(0x20)
            }
            first = false
            try appendKey(entry.key, to: &output)
            if case .item(let item) = entry.member, item.bareItem == .boolean(true) {
                try appendParameters(item.parameters, to: &output)
            } else {
                output.append(UInt8(ascii: "="))
                try appendMember(entry.member, to: &output)
            }
        }
    }

    static func appendList(_ list: SFList, to output: inout [UInt8]) throws(StructuredFieldError) {
        var first = true
        for member in list.members {
            if !first {
                output.append(UInt8(ascii: ","))
                output.append(0x20)
            }
            first = false
            try appendMember(member, to: &output)
        }
    }

    static func appendMember(_ member: SFMember, to output: inout [UInt8]) throws(StructuredFieldError) {
        switch member {
        case .item(let item): try appendItem(item, to: &output)
        case .innerList(let list): try appendInnerList(list, to: &output)
        }
    }

    static func appendInnerList(_ list: SFInnerList, to output: inout [UInt8]) throws(StructuredFieldError) {
        output.append(UInt8(ascii: "("))
        var first = true
        for item in list.items {
            if !first { output.append(0x20) }
            first = false
            try appendItem(item, to: &output)
        }
        output.append(UInt8(ascii: ")"))
        try appendParameters(list.parameters, to: &output)
    }

    static func appendItem(_ item: SFItem, to output: inout [UInt8]) throws(StructuredFieldError) {
        try appendBareItem(item.bareItem, to: &output)
        try appendParameters(item.parameters, to: &output)
    }

    static func appendParameters(_ parameters: SFParameters, to output: inout [UInt8]) throws(StructuredFieldError) {
        for parameter in parameters.elements {
            output.append(UInt8(ascii: ";"))
            try appendKey(parameter.key, to: &output)
            if parameter.value != .boolean(true) {
                output.append(UInt8(ascii: "="))
                try appendBareItem(parameter.value, to: &output)
            }
        }
    }

    static func appendKey(_ key: String, to output: inout [UInt8]) throws(StructuredFieldError) {
        let valid = ByteText.withBytes(key) { bytes in
            guard let first = bytes.first, SFCharacters.isKeyStart(first) else { return false }
            for byte in bytes.dropFirst() where !SFCharacters.isKeyCharacter(byte) { return false }
            output.append(contentsOf: bytes)
            return true
        }
        guard valid else {
            throw StructuredFieldError(.invalidValue, "\"\(key)\" is not a valid key (lowercase letters, digits, _-.*)")
        }
    }

    static func appendBareItem(_ item: SFBareItem, to output: inout [UInt8]) throws(StructuredFieldError) {
        switch item {
        case .integer(let value): try appendInteger(value, to: &output)
        case .decimal(let value):
            guard abs(value.thousandths / 1000) <= 999_999_999_999 else {
                throw StructuredFieldError(.invalidValue, "a decimal has more than 12 integer digits")
            }
            appendDecimal(value, to: &output)
        case .string(let value): try appendString(value, to: &output)
        case .token(let value):
            let utf8 = value.utf8
            guard let first = utf8.first, SFCharacters.isLetter(first) || first == UInt8(ascii: "*"),
                utf8.dropFirst().allSatisfy(SFCharacters.isTokenCharacter)
            else { throw StructuredFieldError(.invalidValue, "\"\(value)\" is not a valid token") }
            output.append(contentsOf: utf8)
        case .byteSequence(let bytes):
            output.append(UInt8(ascii: ":"))
            bytes.withUnsafeBytes { Base64.encode($0, into: &output) }
            output.append(UInt8(ascii: ":"))
        case .boolean(let value):
            output.append(UInt8(ascii: "?"))
            output.append(value ? UInt8(ascii: "1") : UInt8(ascii: "0"))
        }
    }

    static func appendInteger(_ value: Int64, to output: inout [UInt8]) throws(StructuredFieldError) {
        guard value >= -largestInteger && value <= largestInteger else {
            throw StructuredFieldError(.invalidValue, "the integer \(value) has more than 15 digits")
        }
        appendDecimalDigits(of: value, to: &output)
    }

    /// Appends the digits of any integer (with a leading `-` when negative).
    static func appendDecimalDigits(of value: Int64, to output: inout [UInt8]) {
        if value < 0 { output.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var position = 20
            repeat {
                position -= 1
                digits[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            output.append(contentsOf: UnsafeBufferPointer(rebasing: digits[position..<20]))
        }
    }

    static func appendDecimal(_ value: SFDecimal, to output: inout [UInt8]) {
        if value.thousandths < 0 { output.append(UInt8(ascii: "-")) }
        let magnitude = value.thousandths.magnitude
        appendDecimalDigits(of: Int64(magnitude / 1000), to: &output)
        output.append(UInt8(ascii: "."))
        var fraction = Int(magnitude % 1000)
        var digits = 3
        while digits > 1 && fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        var divisor = 1
        for _ in 1..<digits { divisor *= 10 }
        while divisor > 0 {
            output.append(UInt8(ascii: "0") + UInt8(fraction / divisor % 10))
            divisor /= 10
        }
    }

    static func appendString(_ value: String, to output: inout [UInt8]) throws(StructuredFieldError) {
        let valid = ByteText.withBytes(value) { bytes in
            var plain = true
            for byte in bytes {
                guard byte >= 0x20 && byte <= 0x7E else { return false }
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { plain = false }
            }
            output.append(UInt8(ascii: "\""))
            if plain {
                output.append(contentsOf: bytes)
            } else {
                for byte in bytes {
                    if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { output.append(UInt8(ascii: "\\")) }
                    output.append(byte)
                }
            }
            output.append(UInt8(ascii: "\""))
            return true
        }
        guard valid else { throw StructuredFieldError(.invalidValue, "a string may hold printable ASCII only") }
    }
}

extension SFDictionary {
    /// The RFC 8941 serialisation.
    /// - Throws: ``StructuredFieldError`` with code `invalidValue` for a value that cannot be written.
    public func serialized() throws(StructuredFieldError) -> String {
        var bytes: [UInt8] = []
        try SFSerializer.appendDictionary(self, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension SFList {
    /// The RFC 8941 serialisation.
    /// - Throws: ``StructuredFieldError`` with code `invalidValue` for a value that cannot be written.
    public func serialized() throws(StructuredFieldError) -> String {
        var bytes: [UInt8] = []
        try SFSerializer.appendList(self, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension SFMember {
    /// The RFC 8941 serialisation of the item or inner list.
    /// - Throws: ``StructuredFieldError`` with code `invalidValue` for a value that cannot be written.
    public func serialized() throws(StructuredFieldError) -> String {
        var bytes: [UInt8] = []
        try SFSerializer.appendMember(self, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension SFItem {
    /// The RFC 8941 serialisation.
    /// - Throws: ``StructuredFieldError`` with code `invalidValue` for a value that cannot be written.
    public func serialized() throws(StructuredFieldError) -> String {
        var bytes: [UInt8] = []
        try SFSerializer.appendItem(self, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension SFInnerList {
    /// The RFC 8941 serialisation.
    /// - Throws: ``StructuredFieldError`` with code `invalidValue` for a value that cannot be written.
    public func serialized() throws(StructuredFieldError) -> String {
        var bytes: [UInt8] = []
        try SFSerializer.appendInnerList(self, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
