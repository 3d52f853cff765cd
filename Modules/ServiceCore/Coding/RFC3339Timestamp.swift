public import Foundation

/// Timestamps as RFC 3339 text: written in UTC with whole seconds and `Z`
/// (`2026-03-01T12:00:00Z`); read with or without fractional seconds, with `Z` or a numeric
/// offset (`2026-03-01T14:00:00.5+02:00`).
///
/// Codable models use it through `KeyedDecodingContainer.decodeRFC3339(forKey:)` and
/// `KeyedEncodingContainer.encodeRFC3339(_:forKey:)`, so a model's timestamps do not
/// depend on the date strategy of whichever decoder or encoder reads it.
///
/// The text is read and written here, in the Gregorian calendar counted backwards before its
/// 1582 reform as RFC 3339 and ISO 8601 do (Foundation's calendar is Julian before it): every
/// model with a timestamp goes through it on each call, where a calendar-and-formatter round
/// trip costs several microseconds per timestamp. The tests check it against Foundation's
/// ISO 8601 style from 1583 on.
public enum RFC3339Timestamp {
    /// Formats a timestamp: whole seconds (fractions are dropped, towards the past), UTC, `Z`.
    /// Years outside 0...9999 are written with as many digits as they need (and `-` before a
    /// negative one), which RFC 3339 itself cannot express.
    /// - Parameter date: The moment to write.
    /// - Returns: Text such as `2026-03-01T12:00:00Z`.
    public static func string(from date: Date) -> String {
        let interval = date.timeIntervalSince1970.rounded(.down)
        // Beyond about 292 billion years an Int64 of seconds overflows; clamp so text is written.
        let seconds = Int64(max(min(interval, 9.2e18), -9.2e18))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = Int(seconds - days * 86_400)
        let (year, month, day) = civilDate(fromDays: days)
        // `-` and the year's digits (at least 4), then `-MM-DDTHH:MM:SSZ`.
        return String(unsafeUninitializedCapacity: 36) { text in
            var position = 0
            func put(_ value: Int64, digits: Int) {
                var value = value
                for offset in stride(from: digits - 1, through: 0, by: -1) {
                    text[position + offset] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
                position += digits
            }
            func put(_ byte: Unicode.Scalar) {
                text[position] = UInt8(ascii: byte)
                position += 1
            }
            if year < 0 { put("-") }
            var yearDigits = 1
            var rest = year.magnitude / 10
            while rest > 0 {
                yearDigits += 1
                rest /= 10
            }
            put(Int64(year.magnitude), digits: max(4, yearDigits))
            put("-")
            put(Int64(month), digits: 2)
            put("-")
            put(Int64(day), digits: 2)
            put("T")
            put(Int64(time / 3600), digits: 2)
            put(":")
            put(Int64(time / 60 % 60), digits: 2)
            put(":")
            put(Int64(time % 60), digits: 2)
            put("Z")
            return position
        }
    }

    /// Parses RFC 3339 text such as `2026-03-01T12:00:00Z`; fractional seconds and offsets are
    /// accepted, and `t` and `z` in lower case (RFC 3339 §5.6). Every field must be in range for
    /// its month and year; a leap second (`:60`) is refused.
    /// - Parameter text: The text to read.
    /// - Returns: The moment, or `nil` when the text is not such a timestamp.
    public static func date(from text: String) -> Date? {
        var text = text
        return text.withUTF8 { date(fromUTF8: $0) }
    }

    /// ``date(from:)`` over the text's UTF-8 bytes.
    static func date(fromUTF8 bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        // full-date "T" partial-time: 19 bytes, then fractions, then the offset.
        guard bytes.count >= 20 else { return nil }
        func number(_ start: Int, _ count: Int) -> Int? {
            var value = 0
            for index in start..<start + count {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            return value
        }
        guard let year = number(0, 4), bytes[4] == UInt8(ascii: "-"), let month = number(5, 2),
            bytes[7] == UInt8(ascii: "-"), let day = number(8, 2), bytes[10] | 0x20 == UInt8(ascii: "t"),
            let hour = number(11, 2), bytes[13] == UInt8(ascii: ":"), let minute = number(14, 2),
            bytes[16] == UInt8(ascii: ":"), let second = number(17, 2),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), hour < 24, minute < 60,
            second < 60
        else { return nil }
        var index = 19
        // Fractions to the nanosecond; later digits are read and dropped.
        var nanoseconds = 0
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let first = index
            var scale = 100_000_000
            while index < bytes.count, case let digit = bytes[index] &- UInt8(ascii: "0"), digit < 10 {
                nanoseconds += Int(digit) * scale
                scale /= 10
                index += 1
            }
            guard index > first else { return nil }
        }
        guard index < bytes.count else { return nil }
        var offset = 0
        if bytes[index] | 0x20 == UInt8(ascii: "z") {
            index += 1
        } else {
            let sign = bytes[index]
            guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"), index + 6 == bytes.count,
                let hours = number(index + 1, 2), bytes[index + 3] == UInt8(ascii: ":"),
                let minutes = number(index + 4, 2), hours < 24, minutes < 60
            else { return nil }
            offset = (hours * 60 + minutes) * 60 * (sign == UInt8(ascii: "-") ? -1 : 1)
            index += 6
        }
        guard index == bytes.count else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second - offset)
        return Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1_000_000_000)
    }

    /// The days in `month` (1...12) of `year`, leap years counted.
    private static func daysIn(month: Int, year: Int) -> Int {
        if month == 2 { return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28 }
        return month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar: whole 400-year eras
    /// (146 097 days each) from 0000-03-01, years counted from March so the leap day comes last.
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int64 {
        let marchYear = Int64(month <= 2 ? year - 1 : year)
        let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfEra = marchYear - era * 400
        let dayOfYear = Int64((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1)
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01: the inverse of ``daysSinceEpoch(year:month:day:)``.
    static func civilDate(fromDays days: Int64) -> (year: Int64, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * monthFromMarch + 2) / 5 + 1)
        let month = Int(monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9)
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
