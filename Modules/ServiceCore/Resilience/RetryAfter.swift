public import Foundation

/// Reads a `Retry-After` field (RFC 9110 §10.2.3): delta-seconds or an HTTP-date.
public enum RetryAfter {
    /// The wait the field asks for, or `nil` when it is absent or unreadable. A date in the past
    /// gives zero.
    /// - Parameters:
    ///   - value: The field's value, for example `120` or `Wed, 21 Oct 2015 07:28:00 GMT`.
    ///   - now: The wall-clock time, for dates.
    public static func parse(_ value: String, now: Date) -> Duration? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(text) {
            return seconds >= 0 ? .seconds(seconds) : nil
        }
        for format in formats {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) {
                let seconds = date.timeIntervalSince(now)
                return seconds > 0 ? .milliseconds(Int64((seconds * 1000).rounded(.up))) : .zero
            }
        }
        return nil
    }

    /// IMF-fixdate, then the obsolete RFC 850 and asctime forms recipients must accept.
    private static let formats = [
        "EEE, dd MMM yyyy HH:mm:ss 'GMT'",
        "EEEE, dd-MMM-yy HH:mm:ss 'GMT'",
        "EEE MMM d HH:mm:ss yyyy",
    ]
}
