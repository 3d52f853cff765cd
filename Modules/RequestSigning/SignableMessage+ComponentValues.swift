import ServiceCore

extension SignableMessage {
    /// Fields whose structured type is known, for the `sf` and `key` parameters. Other fields are
    /// read as a dictionary, then as a list, then as an item: where more than one reading
    /// succeeds, RFC 8941 serialises them to the same text.
    static let structuredFieldTypes: [String: StructuredFieldKind] = [
        "signature-input": .dictionary, "signature": .dictionary, "content-digest": .dictionary,
        "repr-digest": .dictionary, "want-content-digest": .dictionary, "want-repr-digest": .dictionary,
        "accept-signature": .dictionary, "priority": .dictionary, "cache-status": .list, "proxy-status": .list,
    ]

    /// The three top-level structured field types.
    enum StructuredFieldKind {
        case dictionary, list, item
    }

    /// Appends the component value of `component` (RFC 9421 §2.1, §2.2) to `output`.
    /// - Throws: ``SigningError`` with code `missingComponent` when the message lacks it, or
    ///   `invalidComponent` when it cannot be evaluated on this message.
    func appendValue(of component: ComponentIdentifier, to output: inout [UInt8]) throws(SigningError) {
        if component.isFromRequest {
            guard isResponse else {
                throw SigningError(.invalidComponent, "\(component) uses \"req\", which only a response may use")
            }
            guard let request else {
                throw SigningError(.missingComponent, "\(component) needs the request this response answers")
            }
            return try request.appendValue(of: component.withoutRequestParameter, to: &output)
        }
        if component.isDerived {
            try appendDerivedValue(of: component, to: &output)
        } else {
            try appendFieldValue(of: component, to: &output)
        }
    }

    // MARK: Derived components

    private func appendDerivedValue(of component: ComponentIdentifier, to output: inout [UInt8]) throws(SigningError) {
        if component.name == "@status" {
            guard let status else { throw SigningError(.invalidComponent, "\"@status\" applies to responses only") }
            guard (100...999).contains(status) else {
                throw SigningError(.invalidComponent, "the status \(status) is not a three-digit code")
            }
            SFSerializer.appendDecimalDigits(of: Int64(status), to: &output)
            return
        }
        guard !isResponse else {
            throw SigningError(
                .invalidComponent, "\(component) applies to requests; a response covers it with \"req\"")
        }
        switch component.name {
        case "@method":
            try Self.appendChecked(method, of: component, to: &output)
        case "@authority":
            try appendAuthority(of: component, to: &output)
        case "@scheme":
            try Self.appendChecked(ComponentIdentifier.lowercasedASCII(scheme), of: component, to: &output)
        case "@target-uri":
            try Self.appendChecked(ComponentIdentifier.lowercasedASCII(scheme), of: component, to: &output)
            output.append(contentsOf: "://".utf8)
            try appendAuthority(of: component, to: &output)
            try Self.appendChecked(path.isEmpty ? "/" : path, of: component, to: &output)
            if let query {
                output.append(UInt8(ascii: "?"))
                try Self.appendChecked(query, of: component, to: &output)
            }
        case "@request-target":
            try Self.appendChecked(requestTarget, of: component, to: &output)
        case "@path":
            try Self.appendChecked(path.isEmpty ? "/" : path, of: component, to: &output)
        case "@query":
            output.append(UInt8(ascii: "?"))
            if let query { try Self.appendChecked(query, of: component, to: &output) }
        case "@query-param":
            try appendQueryParameter(of: component, to: &output)
        default:
            throw SigningError(.invalidComponent, "\(component) is not a derived component RFC 9421 defines")
        }
    }

    private func appendAuthority(of component: ComponentIdentifier, to output: inout [UInt8]) throws(SigningError) {
        let value = normalizedAuthority
        guard !value.isEmpty else {
            throw SigningError(.missingComponent, "\(component) needs an authority, and the message has no Host")
        }
        try Self.appendChecked(value, of: component, to: &output)
    }

    /// Appends text that must be visible ASCII or non-ASCII bytes (no controls, no spaces
    /// where a line break could forge a base line).
    private static func appendChecked(
        _ text: String,
        of component: ComponentIdentifier,
        to output: inout [UInt8]
    ) throws(SigningError) {
        for byte in text.utf8 {
            guard byte > 0x20 && byte != 0x7F else {
                throw SigningError(.invalidComponent, "the value of \(component) contains a space or control character")
            }
        }
        output.append(contentsOf: text.utf8)
    }

    private func appendQueryParameter(of component: ComponentIdentifier, to output: inout [UInt8]) throws(SigningError) {
        guard let wanted = component.parameters["name"]?.stringValue else {
            throw SigningError(.invalidComponent, "\"@query-param\" needs a \"name\" parameter")
        }
        var found: [UInt8]?
        var encodedName: [UInt8] = []
        for pair in (query ?? "").split(separator: "&", omittingEmptySubsequences: true) {
            let equals = pair.firstIndex(of: "=")
            let rawName = equals.map { pair[..<$0] } ?? pair[...]
            encodedName.removeAll(keepingCapacity: true)
            FormURLEncoding.encode(FormURLEncoding.decode(rawName.utf8), into: &encodedName)
            guard encodedName.elementsEqual(wanted.utf8) else { continue }
            guard found == nil else {
                throw SigningError(
                    .invalidComponent,
                    "the query parameter \"\(wanted)\" occurs more than once, so RFC 9421 forbids covering it alone")
            }
            var value: [UInt8] = []
            if let equals { FormURLEncoding.encode(FormURLEncoding.decode(pair[pair.index(after: equals)...].utf8), into: &value) }
            found = value
        }
        guard let found else {
            throw SigningError(.missingComponent, "the query has no parameter \"\(wanted)\"")
        }
        output.append(contentsOf: found)
    }

    // MARK: Fields

    private func appendFieldValue(of component: ComponentIdentifier, to output: inout [UInt8]) throws(SigningError) {
        let fromTrailers = component.parameters["tr"] != nil
        let fields = fromTrailers ? trailers : headers
        let section = fromTrailers ? "trailer" : "header"
        let parameters = component.parameters
        let transforms = parameters["sf"] != nil || parameters["key"] != nil || parameters["bs"] != nil
        if !transforms {
            var count = 0
            for field in fields where field.name.equalsIgnoringASCIICase(component.name) {
                if count > 0 { output.append(contentsOf: ", ".utf8) }
                try Self.appendCleanValue(field.value, of: component, to: &output)
                count += 1
            }
            guard count > 0 else { throw SigningError(.missingComponent, "the message has no \(section) field \(component)") }
            return
        }
        var lines: [[UInt8]] = []
        for field in fields where field.name.equalsIgnoringASCIICase(component.name) {
            var line: [UInt8] = []
            try Self.appendCleanValue(field.value, of: component, to: &line)
            lines.append(line)
        }
        guard !lines.isEmpty else {
            throw SigningError(.missingComponent, "the message has no \(section) field \"\(component.name)\"")
        }
        if parameters["bs"] != nil {
            for (index, line) in lines.enumerated() {
                if index > 0 { output.append(contentsOf: ", ".utf8) }
                output.append(UInt8(ascii: ":"))
                line.withUnsafeBytes { Base64.encode($0, into: &output) }
                output.append(UInt8(ascii: ":"))
            }
            return
        }
        let combined = String(decoding: Array(lines.joined(separator: ", ".utf8)), as: UTF8.self)
        if let key = parameters["key"]?.stringValue {
            let dictionary: SFDictionary
            do {
                dictionary = try SFParser.parseDictionary(combined)
            } catch {
                throw SigningError(.invalidComponent, "\(component): the field is not a dictionary (\(error))")
            }
            guard let member = dictionary[key] else {
                throw SigningError(.missingComponent, "the dictionary field \"\(component.name)\" has no key \"\(key)\"")
            }
            do {
                try SFSerializer.appendMember(member, to: &output)
            } catch {
                throw SigningError(.invalidComponent, "\(component): \(error.message)")
            }
            return
        }
        // `sf`: the strict re-serialisation.
        do {
            try Self.appendStructured(combined, name: component.name, to: &output)
        } catch {
            throw SigningError(.invalidComponent, "\(component): the field is not a structured field (\(error))")
        }
    }

    private static func appendStructured(_ value: String, name: String, to output: inout [UInt8]) throws(StructuredFieldError) {
        switch structuredFieldTypes[name] {
        case .dictionary: try SFSerializer.appendDictionary(try SFParser.parseDictionary(value), to: &output)
        case .list: try SFSerializer.appendList(try SFParser.parseList(value), to: &output)
        case .item: try SFSerializer.appendItem(try SFParser.parseItem(value), to: &output)
        case nil:
            if let dictionary = try? SFParser.parseDictionary(value) {
                try SFSerializer.appendDictionary(dictionary, to: &output)
            } else if let list = try? SFParser.parseList(value) {
                try SFSerializer.appendList(list, to: &output)
            } else {
                try SFSerializer.appendItem(try SFParser.parseItem(value), to: &output)
            }
        }
    }

    /// Appends a field line's value with leading and trailing whitespace removed and obsolete
    /// line folding replaced by one space (RFC 9421 §2.1). Any other line break is an error.
    static func appendCleanValue(
        _ value: String,
        of component: ComponentIdentifier,
        to output: inout [UInt8]
    ) throws(SigningError) {
        let utf8 = value.utf8
        var start = utf8.startIndex
        var end = utf8.endIndex
        while start < end && isWhitespace(utf8[start]) { start = utf8.index(after: start) }
        while end > start && isWhitespace(utf8[utf8.index(before: end)]) { end = utf8.index(before: end) }
        let valueStart = output.count
        var index = start
        while index < end {
            let byte = utf8[index]
            if byte == 0x0D || byte == 0x0A {
                // obs-fold: CRLF or LF followed by at least one space or tab.
                var next = index
                if byte == 0x0D {
                    next = utf8.index(after: next)
                    guard next < end, utf8[next] == 0x0A else {
                        throw SigningError(.invalidComponent, "the field \(component) contains a bare CR")
                    }
                }
                next = utf8.index(after: next)
                guard next < end, isWhitespace(utf8[next]) else {
                    throw SigningError(.invalidComponent, "the field \(component) contains a line break")
                }
                while next < end && isWhitespace(utf8[next]) { next = utf8.index(after: next) }
                while output.count > valueStart, let last = output.last, isWhitespace(last) { output.removeLast() }
                output.append(0x20)
                index = next
                continue
            }
            guard byte >= 0x20 || byte == 0x09, byte != 0x7F else {
                throw SigningError(.invalidComponent, "the field \(component) contains a control character")
            }
            output.append(byte)
            index = utf8.index(after: index)
        }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
}
