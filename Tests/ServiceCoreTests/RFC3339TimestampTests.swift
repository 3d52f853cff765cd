import Foundation
import ServiceCore
import ServiceTesting
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
    // MARK: Against Foundation's ISO 8601 style (the oracle)

    /// Seconds from 1583-01-01 to 9999-12-31: the years RFC 3339 can write, from the first whole
    /// year of the Gregorian calendar (before it, Foundation's calendar is Julian, where RFC 3339
    /// and ISO 8601 count the Gregorian calendar backwards).
    private static let representable: ClosedRange<Int64> = -12_212_553_600...253_402_300_799

    @Test func writesWhatFoundationWritesAndReadsItBack() throws {
        var random = SplitMix64(seed: 20_261_202)
        for _ in 0..<5_000 {
            let whole = Int64.random(in: Self.representable, using: &random)
            let fraction = Double(Int.random(in: 0..<1_000, using: &random)) / 1_000
            let date = Date(timeIntervalSince1970: Double(whole) + fraction)
            let text = RFC3339Timestamp.string(from: date)
            #expect(text == date.formatted(.iso8601), "\(whole)")
            let read = try #require(RFC3339Timestamp.date(from: text), "\(text)")
            #expect(read.timeIntervalSince1970 == Double(whole), "\(text)")
        }
    }

    @Test func readsWhatFoundationReadsWithOffsetsAndFractions() throws {
        var random = SplitMix64(seed: 3_339)
        for _ in 0..<2_000 {
            let whole = Int64.random(in: Self.representable, using: &random)
            // Foundation's zones reach 18 hours either way; the corners below go further.
            let offsetMinutes = Int.random(in: -(18 * 60)...(18 * 60), using: &random)
            let zone = try #require(TimeZone(secondsFromGMT: offsetMinutes * 60))
            let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: zone)
            let date = Date(
                timeIntervalSince1970: Double(whole) + Double(Int.random(in: 0..<1_000, using: &random)) / 1_000)
            // Foundation writes the offset as `+hhmm`; RFC 3339 has `+hh:mm`.
            var text = date.formatted(style)
            if !text.hasSuffix("Z") { text.insert(":", at: text.index(text.endIndex, offsetBy: -2)) }
            let expected = try Date(text, strategy: style)
            let read = try #require(RFC3339Timestamp.date(from: text), "\(text)")
            // To the millisecond the text holds (the last bits of a Double differ between the two).
            #expect(
                (read.timeIntervalSince1970 * 1_000).rounded() == (expected.timeIntervalSince1970 * 1_000).rounded(),
                "\(text)")
        }
    }

    @Test(arguments: [
        ("2024-02-29T00:00:00Z", 1_709_164_800.0),
        ("2000-02-29T23:59:59Z", 951_868_799.0),
        ("1600-02-29T00:00:00Z", -11_670_998_400.0),
        ("0001-01-01T00:00:00Z", -62_135_596_800.0),
        ("9999-12-31T23:59:59Z", 253_402_300_799.0),
        ("2026-03-01t12:00:00z", 1_772_366_400.0),
        ("2026-03-01T12:00:00-00:00", 1_772_366_400.0),
        ("2026-03-01T12:00:00.123456789123Z", 1_772_366_400.123_456_789),
        ("2026-03-02T00:00:00+23:59", 1_772_323_260.0),
    ])
    func readsTheCornersOfTheCalendar(_ text: String, _ seconds: Double) throws {
        let date = try #require(RFC3339Timestamp.date(from: text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 1e-6)
    }

    @Test(arguments: [
        "2026-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-00-10T00:00:00Z",
        "2026-01-00T00:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01T00:60:00Z", "2026-12-31T23:59:60Z",
        "2026-01-01T00:00:00.Z", "2026-01-01T00:00:00+24:00", "2026-01-01T00:00:00+01:60",
        "2026-01-01T00:00:00+0100", "2026-01-01T00:00:00Z ", " 2026-01-01T00:00:00Z", "2026-01-01T00:00:00ZZ",
        "202a-01-01T00:00:00Z", "2026-01-01T00:00:00.5", "+2026-01-01T00:00:00Z", "2026-1-01T00:00:00Z",
    ])
    func refusesFieldsOutOfRangeAndMalformedText(_ text: String) {
        #expect(RFC3339Timestamp.date(from: text) == nil)
    }

    @Test(arguments: [
        (-0.5, "1969-12-31T23:59:59Z"),
        (-86_400.25, "1969-12-30T23:59:59Z"),
        (253_402_300_800.0, "10000-01-01T00:00:00Z"),
        (-62_135_596_801.0, "0000-12-31T23:59:59Z"),
        (-62_198_755_200.0, "-0001-01-01T00:00:00Z"),
    ])
    func writesFractionsTowardsThePastAndYearsBeyondFourDigits(_ seconds: Double, _ text: String) {
        #expect(RFC3339Timestamp.string(from: Date(timeIntervalSince1970: seconds)) == text)
    }
}
