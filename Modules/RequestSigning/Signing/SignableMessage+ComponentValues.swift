import HTTPTypes
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
        if let derived = component.derived {
            try appendDerivedValue(derived, of: component, to: &output)
        } else {
            try appendFieldValue(of: component, to: &output)
        }
    }

    // MARK: Derived components

    private func appendDerivedValue(
        _ derived: ComponentIdentifier.Derived,
        of component: ComponentIdentifier,
        to output: inout [UInt8]
    ) throws(SigningError) {
        if derived == .status {
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
        if derived == .queryParameter {
            try appendQueryParameter(of: component, to: &output)
            return
        }
        let problem = ByteWriter.appending(to: &output) { writer in
            withParts { $0.writeDerived(derived, to: &writer) }
        }
        if let problem { throw problem }
    }

    private func appendQueryParameter(of component: ComponentIdentifier, to output: inout [UInt8]) throws(SigningError)
    {
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
            if let equals {
                FormURLEncoding.encode(FormURLEncoding.decode(pair[pair.index(after: equals)...].utf8), into: &value)
            }
            found = value
        }
        guard let found else {
            throw SigningError(.missingComponent, "the query has no parameter \"\(wanted)\"")
        }
        output.append(contentsOf: found)
    }

    // MARK: Fields

    private func appendFieldValue(of component: ComponentIdentifier, to output: inout [UInt8]) throws(SigningError) {
        let parameters = component.parameters
        let fromTrailers = !parameters.isEmpty && parameters["tr"] != nil
        let fields = fromTrailers ? trailers : headers
        let section = fromTrailers ? "trailer" : "header"
        let transforms =
            !parameters.isEmpty && (parameters["sf"] != nil || parameters["key"] != nil || parameters["bs"] != nil)
        if !transforms {
            switch Self.appendCombinedValue(of: component.name, in: fields, to: &output) {
            case .appended: return
            case .absent:
                throw SigningError(.missingComponent, "the message has no \(section) field \"\(component.name)\"")
            case .invalid(let reason):
                throw SigningError(.invalidComponent, "the field \(component) contains \(reason)")
            }
        }
        var lines: [[UInt8]] = []
        for field in fields where field.name.equalsIgnoringASCIICase(component.name) {
            var line: [UInt8] = []
            if let reason = Self.appendCleanValue(field.value, to: &line) {
                throw SigningError(.invalidComponent, "the field \(component) contains \(reason)")
            }
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
                throw SigningError(
                    .missingComponent, "the dictionary field \"\(component.name)\" has no key \"\(key)\"")
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

    /// The outcome of appending a field's combined value.
    enum FieldAppend {
        case appended
        case absent
        case invalid(String)
    }

    /// Appends the values of every field named `lowercaseName` (cleaned, joined with `", "`).
    static func appendCombinedValue(
        of lowercaseName: String,
        in fields: HTTPHeaders,
        to output: inout [UInt8]
    ) -> FieldAppend {
        ByteText.withBytes(lowercaseName) { appendCombinedValue(of: $0, in: fields, to: &output) }
    }

    /// Appends the values of every field named by the lowercase bytes `name`.
    static func appendCombinedValue(
        of name: UnsafeBufferPointer<UInt8>,
        in fields: HTTPHeaders,
        to output: inout [UInt8]
    ) -> FieldAppend {
        ByteWriter.appending(to: &output) { writeField(name, in: fields, to: &$0) }
    }

    private static func appendStructured(_ value: String, name: String, to output: inout [UInt8])
        throws(StructuredFieldError)
    {
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
    /// line folding replaced by one space (RFC 9421 §2.1).
    /// - Returns: `nil`, or what makes the value unusable (a line break that is not a fold, a
    ///   control character).
    static func appendCleanValue(_ value: String, to output: inout [UInt8]) -> String? {
        ByteWriter.appending(to: &output) { writeCleanValue(value, to: &$0) }
    }

    /// The unusual case of ``writeCleanValue(_:to:)``: replaces each obs-fold (CRLF or LF, then
    /// spaces or tabs) with one space.
    static func appendUnfolded(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) -> String? {
        let valueStart = output.count
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0D || byte == 0x0A {
                var next = index
                if byte == 0x0D {
                    next += 1
                    guard next < bytes.count, bytes[next] == 0x0A else { return "a bare CR" }
                }
                next += 1
                guard next < bytes.count, isWhitespace(bytes[next]) else { return "a line break" }
                while next < bytes.count && isWhitespace(bytes[next]) { next += 1 }
                while output.count > valueStart, let last = output.last, isWhitespace(last) { output.removeLast() }
                output.append(0x20)
                index = next
                continue
            }
            guard byte >= 0x20 || byte == 0x09, byte != 0x7F else { return "a control character" }
            output.append(byte)
            index += 1
        }
        return nil
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
}
