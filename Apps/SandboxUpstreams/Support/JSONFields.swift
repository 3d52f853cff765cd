/// Reads the members of a JSON object with the contract's rules, throwing a 400
/// `invalid_request` ``Problem`` that names the member and the rule.
///
/// Members not asked for are ignored (clients may send more than an upstream knows).
struct JSONFields {
    /// The object's members.
    let value: JSONValue
    /// The member path prefix used in messages (`amount.`).
    let prefix: String

    /// Wraps a value that must be an object.
    /// - Parameters:
    ///   - value: The parsed value.
    ///   - what: How to name it in an error (`the body`, `amount`).
    ///   - prefix: The prefix for member names in messages.
    init(_ value: JSONValue, what: String = "the body", prefix: String = "") throws(Problem) {
        guard value.isObject else {
            throw Problem(.invalidRequest, "\(what) must be a JSON object, not \(value.kindName)")
        }
        self.value = value
        self.prefix = prefix
    }

    private func invalid(_ name: String, _ rule: String) -> Problem {
        Problem(.invalidRequest, "\(prefix)\(name) \(rule)")
    }

    /// A member that must be a string.
    func string(_ name: String) throws(Problem) -> String {
        guard let member = value[member: name] else { throw invalid(name, "is required") }
        guard case .string(let text) = member else { throw invalid(name, "must be a string, not \(member.kindName)") }
        return text
    }

    /// A member that may be absent or `null`, else a string.
    func optionalString(_ name: String) throws(Problem) -> String? {
        guard let member = value[member: name], member != .null else { return nil }
        guard case .string(let text) = member else { throw invalid(name, "must be a string, not \(member.kindName)") }
        return text
    }

    /// A member that must be a JSON integer (digits with an optional minus: no fraction, no
    /// exponent) within `range`.
    func integer(_ name: String, in range: ClosedRange<Int64>) throws(Problem) -> Int64 {
        guard let member = value[member: name] else { throw invalid(name, "is required") }
        guard case .number(let text) = member else {
            throw invalid(name, "must be an integer, not \(member.kindName)")
        }
        guard !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) else {
            throw invalid(name, "must be an integer without fraction or exponent, got \(text)")
        }
        guard let number = Int64(text), range.contains(number) else {
            throw invalid(name, "must be between \(range.lowerBound) and \(range.upperBound), got \(text)")
        }
        return number
    }

    /// A member that must be an object, read with the same rules.
    func object(_ name: String) throws(Problem) -> JSONFields {
        guard let member = value[member: name] else { throw invalid(name, "is required") }
        return try JSONFields(member, what: "\(prefix)\(name)", prefix: "\(prefix)\(name).")
    }
}
