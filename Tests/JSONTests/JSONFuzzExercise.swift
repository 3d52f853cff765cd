import Foundation
import JSON

/// What the JSON fuzz target and its regression test run for one input: the bytes are decoded as
/// a generic value (numbers as `Double`, then numbers as `Int64`) by the project's decoder and by
/// Foundation's `JSONDecoder`, and read by ``ReferenceJSON``, the strict rules written apart from
/// the engine. What the rules refuse (a repeated member, a byte-order mark, invalid UTF-8, a lone
/// surrogate, malformed JSON, nesting deeper than 256, a number out of `Double` range or a
/// non-zero one that rounds to zero; for `Int64`, a number with a fraction or an exponent or out
/// of range) the project's decoder must refuse; what they allow it must decode to the value they
/// read; and where Foundation accepts too, Foundation's value must be the same. A difference is a
/// `JSONFuzzExercise.Violation`.
///
/// The same file is compiled into the libFuzzer binary (Tools/fuzz/run) and into the test target.
enum JSONFuzzExercise {
    /// A broken invariant, with the document concerned.
    struct Violation: Error, CustomStringConvertible {
        var message: String
        var document: [UInt8]
        var description: String {
            "\(message); document: \(String(decoding: document.prefix(512), as: UTF8.self).debugDescription)"
        }
    }

    /// Decodes the input both ways and checks the results against the rules.
    static func run(_ input: [UInt8]) throws(Violation) {
        let data = Data(input)
        let reference = Result { () throws(ReferenceJSON.Refusal) in try ReferenceJSON.parse(data) }
        try compare(Double.self, data, reference) { text in
            // Within range: finite, and not zero unless the digits before the exponent are.
            let nonZero = text.prefix { $0 != "e" && $0 != "E" }.contains { ("1"..."9").contains($0) }
            return Double(text).flatMap { $0.isFinite && ($0 != 0 || !nonZero) ? $0 : nil }
        }
        try compare(Int64.self, data, reference) { text in
            text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) ? nil : Int64(text)
        }
    }

    /// Checks one reading: numbers as `Number`, which `convert` makes from a number's text as the
    /// rules allow (`nil`: the rules refuse that number as a `Number`).
    private static func compare<Number: Decodable & Equatable & Sendable>(
        _ type: Number.Type, _ data: Data, _ reference: Result<ReferenceJSON, ReferenceJSON.Refusal>,
        convert: (String) -> Number?
    ) throws(Violation) {
        let ours = Result { try StreamingJSONDecoder().decode(FuzzValue<Number>.self, from: data) }
        let foundation = Result { try JSONDecoder().decode(FuzzValue<Number>.self, from: data) }
        let expected: FuzzValue<Number>?
        let why: String
        switch reference {
        case .failure(let refusal):
            expected = nil
            why = refusal.description
        case .success(let value):
            expected = FuzzValue(value, convert: convert)
            why = "a number is not a valid \(Number.self)"
        }
        let document = [UInt8](data)
        switch (expected, ours) {
        case (nil, .success):
            throw Violation(
                message: "decoded as \(Number.self) although the rules refuse it (\(why))", document: document)
        case (nil, .failure):
            return
        case (.some, .failure(let error)):
            throw Violation(
                message: "refused as \(Number.self) although the rules allow it: \(error)", document: document)
        case (.some(let expected), .success(let value)):
            guard value == expected else {
                throw Violation(
                    message: "decoded as \(Number.self) to another value than the rules read", document: document)
            }
            if case .success(let other) = foundation, other != value {
                throw Violation(message: "Foundation decodes another value as \(Number.self)", document: document)
            }
        }
    }
}

/// A JSON value decoded through `Decodable`, numbers as `Number`. Object members are compared
/// regardless of order (Foundation does not keep it).
indirect enum FuzzValue<Number: Decodable & Equatable & Sendable>: Decodable, Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Number)
    case string(String)
    case array([FuzzValue])
    case object([(String, FuzzValue)])

    /// Any member name.
    struct Name: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(String.self) {
            self = .string(value)
        } else if let value = try? single.decode(Number.self) {
            self = .number(value)
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode([FuzzValue].self) {
            self = .array(value)
        } else {
            let container = try decoder.container(keyedBy: Name.self)
            var members: [(String, FuzzValue)] = []
            for key in container.allKeys {
                members.append((key.stringValue, try container.decode(FuzzValue.self, forKey: key)))
            }
            self = .object(members)
        }
    }

    /// The value the rules read, or `nil` when `convert` refuses one of its numbers.
    init?(_ value: ReferenceJSON, convert: (String) -> Number?) {
        switch value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .number(let text):
            guard let number = convert(text) else { return nil }
            self = .number(number)
        case .string(let text): self = .string(text)
        case .array(let elements):
            var values: [FuzzValue] = []
            for element in elements {
                guard let converted = FuzzValue(element, convert: convert) else { return nil }
                values.append(converted)
            }
            self = .array(values)
        case .object(let members):
            var values: [(String, FuzzValue)] = []
            for (name, member) in members {
                guard let converted = FuzzValue(member, convert: convert) else { return nil }
                values.append((name, converted))
            }
            self = .object(values)
        }
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a.unicodeScalars.elementsEqual(b.unicodeScalars)
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)):
            a.count == b.count
                && a.allSatisfy { member in
                    b.contains { $0.0.unicodeScalars.elementsEqual(member.0.unicodeScalars) && $0.1 == member.1 }
                }
        default: false
        }
    }
}
