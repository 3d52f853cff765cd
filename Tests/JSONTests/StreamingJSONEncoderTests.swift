import Foundation
import JSON
import Testing

struct StreamingJSONEncoderTests {
    struct Nested: Codable, Equatable, Sendable {
        enum Kind: String, Codable, Sendable { case a, b }
        var name: String
        var count: Int
        var ratio: Double
        var flag: Bool
        var missing: String?
        var present: String?
        var kind: Kind
        var tags: [String]
        var matrix: [[Int]]
        var children: [Nested]
        var map: [String: Int]
        var when: Date
        var blob: Data
        var link: URL
        var small: Float
        var big: UInt64
    }

    static func sample() -> Nested {
        let child = Nested(
            name: "child \"quoted\"\n\t\u{1}/é😀", count: -1, ratio: 1e-7, flag: false, missing: nil, present: "",
            kind: .b, tags: [], matrix: [[]], children: [], map: [:], when: Date(timeIntervalSince1970: 0),
            blob: Data(), link: URL(string: "https://x.example/a?b=c")!, small: 0.1, big: .max
        )
        return Nested(
            name: "root", count: 42, ratio: 0.5, flag: true, missing: nil, present: "here", kind: .a,
            tags: ["x", "y"], matrix: [[1, 2], [3]], children: [child, child], map: ["k": 1],
            when: Date(timeIntervalSince1970: 1_700_000_000.25), blob: Data([0, 255, 7]),
            link: URL(string: "https://x.example/")!, small: 2.5, big: 7
        )
    }

    @Test func outputDecodesToTheSameValue() throws {
        let value = Self.sample()
        let data = try StreamingJSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(Nested.self, from: data) == value)
    }

    @Test func keysKeepEncodingOrderAndMatchFoundation() throws {
        struct Flat: Encodable {
            var a = "x/y \"z\""
            var b = 12
            var c = [1.5, 2, -0.25]
            var d: String? = nil
            var e = true
            var f = ["n": ["deep": [1, 2]]]
        }
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.withoutEscapingSlashes]
        let expected = try JSONSerialization.jsonObject(with: try foundation.encode(Flat())) as? NSDictionary
        let data = try StreamingJSONEncoder().encode(Flat())
        let actual = String(decoding: data, as: UTF8.self)
        #expect(try JSONSerialization.jsonObject(with: data) as? NSDictionary == expected)
        #expect(actual == #"{"a":"x/y \"z\"","b":12,"c":[1.5,2,-0.25],"e":true,"f":{"n":{"deep":[1,2]}}}"#)
    }

    @Test func controlCharactersAreEscaped() throws {
        let data = try StreamingJSONEncoder().encode(["k": "a\u{0}b\u{1F}c\\d"])
        #expect(String(decoding: data, as: UTF8.self) == #"{"k":"a\u0000b\u001fc\\d"}"#)
    }

    /// Member keys are written with their separators in one step; keys that need escapes, as
    /// first or later members, come out as Foundation writes them.
    @Test func keysNeedingEscapesMatchFoundation() throws {
        struct Keys: Encodable {
            enum CodingKeys: String, CodingKey {
                case plain = "a"
                case quoted = "q\"uo\\te"
                case control = "c\u{1}\n"
                case wide = "é😀"
            }
            var plain = 1
            var quoted = "x"
            var control = true
            var wide = [2]
        }
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.withoutEscapingSlashes]
        let actual = String(decoding: try StreamingJSONEncoder().encode(Keys()), as: UTF8.self)
        #expect(actual == #"{"a":1,"q\"uo\\te":"x","c\u0001\n":true,"é😀":[2]}"#)
        let expected = try JSONSerialization.jsonObject(with: try foundation.encode(Keys())) as? NSDictionary
        #expect(try JSONSerialization.jsonObject(with: Data(actual.utf8)) as? NSDictionary == expected)
        let first = String(decoding: try StreamingJSONEncoder().encode(["\"k\"": 1]), as: UTF8.self)
        #expect(first == #"{"\"k\"":1}"#)
    }

    /// The scan checks eight bytes at a time: an escapable byte at every offset of a word, and
    /// at the tail, must be found.
    @Test(arguments: ["\"", "\\", "\n", "\u{1}", "\u{1F}"])
    func escapesAreFoundAtEveryOffset(special: String) throws {
        for length in [1, 7, 8, 9, 16, 23] {
            for position in 0..<length {
                var characters = Array(repeating: "a", count: length)
                characters[position] = special
                let text = characters.joined()
                let data = try StreamingJSONEncoder().encode([text])
                #expect(try JSONDecoder().decode([String].self, from: data) == [text], "\(length) \(position)")
            }
        }
        let multibyte = "é😀\u{7F}ü"
        #expect(String(decoding: try StreamingJSONEncoder().encode([multibyte]), as: UTF8.self) == "[\"\(multibyte)\"]")
    }

    @Test func topLevelScalarsAndEmptyValues() throws {
        struct Empty: Encodable {}
        #expect(String(decoding: try StreamingJSONEncoder().encode(5), as: UTF8.self) == "5")
        #expect(String(decoding: try StreamingJSONEncoder().encode("s"), as: UTF8.self) == "\"s\"")
        #expect(String(decoding: try StreamingJSONEncoder().encode(Empty()), as: UTF8.self) == "{}")
        #expect(String(decoding: try StreamingJSONEncoder().encode([Int]()), as: UTF8.self) == "[]")
    }

    @Test func integersAtTheirLimits() throws {
        struct Numbers: Encodable {
            var a = Int64.min
            var b = Int64.max
            var c = 0
            var d = -1
            var e = UInt64.max
            var f = Int8.min
            var g = UInt32.max
        }
        let text = String(decoding: try StreamingJSONEncoder().encode(Numbers()), as: UTF8.self)
        #expect(
            text
                == #"{"a":-9223372036854775808,"b":9223372036854775807,"c":0,"d":-1,"e":18446744073709551615,"f":-128,"g":4294967295}"#
        )
    }

    @Test func nonFiniteNumbersThrow() {
        #expect(throws: EncodingError.self) { try StreamingJSONEncoder().encode(["x": Double.nan]) }
        #expect(throws: EncodingError.self) { try StreamingJSONEncoder().encode([Float.infinity]) }
    }

    @Test func dateEncodings() throws {
        let date = Date(timeIntervalSince1970: 1_764_482_400)
        #expect(
            String(decoding: try StreamingJSONEncoder(dateEncoding: .secondsSince1970).encode([date]), as: UTF8.self)
                == "[1764482400]")
        #expect(
            String(
                decoding: try StreamingJSONEncoder(dateEncoding: .millisecondsSince1970).encode([date]), as: UTF8.self)
                == "[1764482400000]")
        #expect(
            String(decoding: try StreamingJSONEncoder(dateEncoding: .iso8601).encode([date]), as: UTF8.self)
                == #"["2025-11-30T06:00:00Z"]"#)
    }

    /// Writes two nested containers and fills them in reverse order: impossible to stream, so
    /// the encoder refuses rather than write invalid JSON.
    @Test func outOfOrderEncodingIsRefused() throws {
        struct Interleaved: Encodable {
            enum Keys: String, CodingKey { case first, second }
            enum Inner: String, CodingKey { case value }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                var first = container.nestedContainer(keyedBy: Inner.self, forKey: .first)
                var second = container.nestedContainer(keyedBy: Inner.self, forKey: .second)
                try second.encode(2, forKey: .value)
                try first.encode(1, forKey: .value)
            }
        }
        #expect(throws: EncodingError.self) { try StreamingJSONEncoder().encode(Interleaved()) }
        #expect(throws: EncodingError.self) { try SortedKeysJSONEncoder().encode(Interleaved()) }
    }

    @Test func classesUsingSuperEncoderAreRefused() throws {
        class Base: Encodable {
            var id = 1
        }
        final class Derived: Base {
            var extra = "x"
            enum Keys: String, CodingKey { case extra }
            override func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(extra, forKey: .extra)
                try super.encode(to: container.superEncoder())
            }
        }
        #expect(throws: EncodingError.self) { try StreamingJSONEncoder().encode(Derived()) }
    }
}
