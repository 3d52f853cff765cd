import Foundation
import ServiceCore
import Testing

/// RFC 3339 timestamps: the exact text written, what is read, and the keyed-container helpers
/// that models use.
struct RFC3339TimestampTests {
    /// 2026-03-01T12:00:00Z.
    static let noon = Date(timeIntervalSince1970: 1_772_366_400)

    @Test(arguments: [
        (1_772_366_400.0, "2026-03-01T12:00:00Z"),
        (1_772_366_400.75, "2026-03-01T12:00:00Z"),
        (0.0, "1970-01-01T00:00:00Z"),
        (-1.0, "1969-12-31T23:59:59Z"),
        (4_102_444_799.0, "2099-12-31T23:59:59Z"),
    ])
    func writesWholeSecondsInUTC(_ seconds: Double, _ text: String) {
        #expect(RFC3339Timestamp.string(from: Date(timeIntervalSince1970: seconds)) == text)
    }

    @Test(arguments: [
        ("2026-03-01T12:00:00Z", 1_772_366_400.0),
        ("2026-03-01T12:00:00.5Z", 1_772_366_400.5),
        ("2026-03-01T14:00:00+02:00", 1_772_366_400.0),
        ("2026-03-01T07:30:00-04:30", 1_772_366_400.0),
    ])
    func readsFractionsAndOffsets(_ text: String, _ seconds: Double) throws {
        let date = try #require(RFC3339Timestamp.date(from: text))
        #expect(date.timeIntervalSince1970 == seconds)
    }

    @Test(arguments: [
        "", "garbage", "2026-03-01", "2026-03-01T12:00:00", "2026-03-01 12:00:00Z", "2026-13-01T12:00:00Z",
    ])
    func refusesOtherText(_ text: String) {
        #expect(RFC3339Timestamp.date(from: text) == nil)
    }

    @Test
    func modelsEncodeTimestampsAsText() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let entry = CatalogEntry(name: "n", url: "https://x/y", listedAt: Self.noon)
        #expect(
            String(decoding: try encoder.encode(entry), as: UTF8.self)
                == #"{"listedAt":"2026-03-01T12:00:00Z","name":"n","url":"https://x/y"}"#
        )
        let retired = CatalogEntry(name: "n", url: "u", listedAt: Self.noon, retiredAt: Self.noon + 86_400)
        #expect(
            String(decoding: try encoder.encode(retired), as: UTF8.self)
                == #"{"listedAt":"2026-03-01T12:00:00Z","name":"n","retiredAt":"2026-03-02T12:00:00Z","url":"u"}"#
        )
    }

    @Test(arguments: [
        #"{"name":"n","url":"u","listedAt":"2026-03-01T12:00:00Z"}"#,
        #"{"name":"n","url":"u","listedAt":"2026-03-01T12:00:00Z","retiredAt":null}"#,
        #"{"name":"n","url":"u","listedAt":"2026-03-01T13:00:00+01:00"}"#,
    ])
    func modelsDecodeTimestampsAbsentOrNull(_ json: String) throws {
        let entry = try JSONDecoder().decode(CatalogEntry.self, from: Data(json.utf8))
        #expect(entry == CatalogEntry(name: "n", url: "u", listedAt: Self.noon))
    }

    @Test
    func anOptionalTimestampDecodesWhenPresent() throws {
        let json = #"{"name":"n","url":"u","listedAt":"2026-03-01T12:00:00Z","retiredAt":"2026-03-02T12:00:00Z"}"#
        let entry = try JSONDecoder().decode(CatalogEntry.self, from: Data(json.utf8))
        #expect(entry.retiredAt == Self.noon + 86_400)
    }

    @Test(arguments: [
        (#"{"name":"n","url":"u","listedAt":"yesterday"}"#, "listedAt"),
        (#"{"name":"n","url":"u","listedAt":"2026-03-01T12:00:00Z","retiredAt":"soon"}"#, "retiredAt"),
    ])
    func badTimestampsAreCorruptData(_ json: String, _ key: String) throws {
        let error = try #require(throws: DecodingError.self) {
            try JSONDecoder().decode(CatalogEntry.self, from: Data(json.utf8))
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("expected dataCorrupted, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == [key])
        #expect(context.debugDescription == "expected an RFC 3339 timestamp such as 2026-03-01T12:00:00Z")
    }

    @Test(arguments: [
        #"{"name":"n","url":"u"}"#, #"{"name":"n","url":"u","listedAt":null}"#, #"{"name":"n","url":"u","listedAt":1}"#,
    ])
    func aRequiredTimestampMustBeText(_ json: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(CatalogEntry.self, from: Data(json.utf8)) }
    }
}
