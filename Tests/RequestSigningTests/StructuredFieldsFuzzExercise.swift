import RequestSigning

/// What the StructuredFields fuzz target and its regression test run for one input: the bytes,
/// read as text, are parsed as an RFC 8941 item, list and dictionary. Whatever parses holds only
/// the characters a field value may hold, serialises, and parses back to the same value and the
/// same serialisation; a violation is a `StructuredFieldsFuzzExercise.Violation`.
///
/// The same file is compiled into the libFuzzer binary (Tools/fuzz/run) and into the test target.
enum StructuredFieldsFuzzExercise {
    /// A broken invariant, with the input that broke it.
    struct Violation: Error, CustomStringConvertible {
        var message: String
        var input: String
        var description: String { "\(message); input: \(input.debugDescription)" }
    }

    /// Small limits on some inputs, so the limit checks are reached too.
    static let small = SFParser.Limits(
        maximumLength: 64, maximumMembers: 3, maximumInnerListItems: 3, maximumParameters: 2)

    /// Parses `input` as each field type and checks what parses.
    static func run(_ input: [UInt8]) throws(Violation) {
        let text = String(decoding: input, as: UTF8.self)
        let limits = input.first.map { $0 & 1 == 1 } == true ? small : .default
        let ascii = input.allSatisfy { $0 == 0x09 || (0x20...0x7E).contains($0) }

        if let item = try? SFParser.parseItem(text, limits: limits) {
            try check(ascii, "item", text) { () throws(StructuredFieldError) in
                let serialized = try item.serialized()
                let again = try SFParser.parseItem(serialized)
                return (again == item, try again.serialized() == serialized)
            }
        }
        if let list = try? SFParser.parseList(text, limits: limits) {
            try check(ascii, "list", text) { () throws(StructuredFieldError) in
                let serialized = try list.serialized()
                let again = try SFParser.parseList(serialized)
                return (again == list, try again.serialized() == serialized)
            }
        }
        if let dictionary = try? SFParser.parseDictionary(text, limits: limits) {
            try check(ascii, "dictionary", text) { () throws(StructuredFieldError) in
                let serialized = try dictionary.serialized()
                let again = try SFParser.parseDictionary(serialized)
                // Keys are unique once parsed (the last value wins), so the count bounds the members.
                let unique = Set(dictionary.keys).count == dictionary.count
                return (again == dictionary && unique, try again.serialized() == serialized)
            }
        }
    }

    /// Checks a parsed value: ASCII input, and `roundTrip` gives (same value, same text).
    private static func check(
        _ ascii: Bool, _ kind: String, _ text: String,
        _ roundTrip: () throws(StructuredFieldError) -> (Bool, Bool)
    ) throws(Violation) {
        guard ascii else { throw Violation(message: "a \(kind) parsed from non-ASCII text", input: text) }
        let result: (Bool, Bool)
        do {
            result = try roundTrip()
        } catch {
            throw Violation(message: "a parsed \(kind) does not serialise and parse again: \(error)", input: text)
        }
        guard result.0 else {
            throw Violation(message: "a \(kind) parses to another value once serialised", input: text)
        }
        guard result.1 else { throw Violation(message: "a \(kind)'s serialisation is not stable", input: text) }
    }
}
