import Foundation
import JSON
import Testing

/// A flat object written member by member has the bytes the streaming encoder writes for a value
/// with the same members (the oracle).
struct JSONObjectWriterTests {
    /// String and integer members in the order given, encoded through `Encodable`.
    struct Members: Encodable {
        enum Value {
            case string(String)
            case integer(Int)
        }

        var members: [(String, Value)]

        struct Key: CodingKey {
            let stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for (name, value) in members {
                switch value {
                case .string(let string): try container.encode(string, forKey: Key(stringValue: name))
                case .integer(let integer): try container.encode(integer, forKey: Key(stringValue: name))
                }
            }
        }

        func written() -> Data {
            var object = JSONObjectWriter()
            for (name, value) in members {
                switch value {
                case .string(let string): object.member(name, string)
                case .integer(let integer): object.member(name, integer)
                }
            }
            return object.finish()
        }
    }

    static let cases: [Members] = [
        Members(members: []),
        Members(members: [("status", .integer(401))]),
        Members(members: [
            ("type", .string("about:blank")), ("title", .string("Unauthorized")), ("status", .integer(401)),
            ("detail", .string("This endpoint needs an Authorization: Bearer token.")),
            ("code", .string("unauthorized")), ("requestId", .string("95709d28ea2440d5")),
        ]),
        Members(members: [
            ("quote\"d key", .string("a \"quoted\"\n\t\u{1}\u{7F} /é😀 \\ value")), ("", .string("")),
            ("min", .integer(Int.min)), ("max", .integer(Int.max)), ("zero", .integer(0)), ("min", .integer(-7)),
            ("long", .string(String(repeating: "x", count: 2000) + "\u{1F}")),
        ]),
    ]

    @Test(arguments: cases.indices)
    func writesWhatTheStreamingEncoderWrites(index: Int) throws {
        let members = Self.cases[index]
        let written = members.written()
        #expect(written == (try StreamingJSONEncoder().encode(members)))
        #expect((try JSONSerialization.jsonObject(with: written)) is [String: Any])
    }
}
