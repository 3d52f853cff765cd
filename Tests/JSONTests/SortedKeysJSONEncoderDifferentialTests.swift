import Foundation
import JSON
import ServiceTesting
import Testing

/// ``SortedKeysJSONEncoder`` against Foundation's `JSONEncoder` with
/// `[.sortedKeys, .withoutEscapingSlashes]` on seeded random values: the same bytes, and the
/// engine reads back what it wrote.
struct SortedKeysJSONEncoderDifferentialTests {
    struct Record: Codable, Equatable {
        var name: String
        var count: Int64
        var ratio: Double
        var flag: Bool?
        var tags: [String]
        var children: [String: [String: Int]]
    }

    static func text(_ random: inout SplitMix64) -> String {
        let pieces = [
            "a", "B", "z9", "_", "é", "😀", "e\u{301}", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1F}", "\u{7F}",
            "\u{2028}", "日本", " ", "10", "2",
        ]
        return (0..<Int.random(in: 0...4, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    static func record(_ random: inout SplitMix64) -> Record {
        var children: [String: [String: Int]] = [:]
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            var inner: [String: Int] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                inner[text(&random)] = Int.random(in: -1_000_000...1_000_000, using: &random)
            }
            children[text(&random)] = inner
        }
        return Record(
            name: text(&random),
            count: Int64.random(in: .min ... .max, using: &random),
            ratio: Double.random(in: -1e9...1e9, using: &random),
            flag: Bool.random(using: &random) ? nil : Bool.random(using: &random),
            tags: (0..<Int.random(in: 0...3, using: &random)).map { _ in text(&random) },
            children: children
        )
    }

    @Test func sameBytesAsFoundationSoConfigured() throws {
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var random = SplitMix64(seed: 0x5027_2026)
        for _ in 0..<300 {
            let value = Self.record(&random)
            let ours = try SortedKeysJSONEncoder().encode(value)
            #expect(
                String(decoding: ours, as: UTF8.self) == String(decoding: try foundation.encode(value), as: UTF8.self))
            #expect(try StreamingJSONDecoder().decode(Record.self, from: ours) == value)
        }
    }
}
