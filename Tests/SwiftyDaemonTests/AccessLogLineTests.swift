import AppLogging
import Foundation
import Testing

@testable import SwiftyDaemon

/// The access line written straight to the stream must be the very bytes the logger would write.
struct AccessLogLineTests {
    static let lines: [AccessLogLine] = [
        AccessLogLine(
            requestID: "r-1", method: "GET", route: "/v1/users/{id}", status: "200", durationMilliseconds: "1.25",
            upstream: [.init(module: "UserModule", operation: "profile", outcome: "200", milliseconds: 1)]
        ),
        AccessLogLine(
            requestID: "0123456789abcdef", method: "GET", route: "unmatched", status: "404",
            durationMilliseconds: "0.03", upstream: []
        ),
        AccessLogLine(
            requestID: "r\"2\\\n\u{1}", method: "POST", route: "/v1/é/✓", status: "502", durationMilliseconds: "120.00",
            upstream: [
                .init(module: "UserModule", operation: "introspect", outcome: "200", milliseconds: 3),
                .init(module: "FeedModule", operation: "timeline", outcome: "timeout", milliseconds: 2000),
                .init(module: "Payment\"Module", operation: "wallet\t", outcome: "refused", milliseconds: 0),
            ]
        ),
        AccessLogLine(
            requestID: "-", method: "other", route: "refused", status: "400", durationMilliseconds: "0.10",
            upstream: [], client: "2001:db8::7", refusal: "malformed"
        ),
    ]

    /// The line alone, appended to an empty buffer.
    static func bytes(of line: AccessLogLine, date: Date) -> [UInt8] {
        var bytes: [UInt8] = []
        line.append(to: &bytes, date: date, label: "swiftyd.access")
        return bytes
    }

    @Test(arguments: lines)
    func directBytesEqualTheLoggersLine(_ line: AccessLogLine) {
        let date = Date(timeIntervalSince1970: 1_796_000_000.123)
        let record = LogRecord(
            date: date, level: .info, label: "swiftyd.access", message: "request", metadata: line.metadata,
            source: "swiftyd.access", file: #fileID, line: #line
        )
        let expected = LogLineFormatter.jsonBytes(record, newline: true)
        #expect(Self.bytes(of: line, date: date) == expected)
        #expect(String(decoding: expected, as: UTF8.self).hasSuffix("}\n"))
    }

    /// Appended to a batch, a line adds exactly its own bytes and keeps the lines before it.
    @Test func appendingAddsTheSameBytesAfterTheBatch() {
        let date = Date(timeIntervalSince1970: 1_796_000_000.5)
        var batch: [UInt8] = []
        for line in Self.lines { line.append(to: &batch, date: date, label: "swiftyd.access") }
        let separately = Self.lines.flatMap { Self.bytes(of: $0, date: date) }
        #expect(batch == separately)
        #expect(batch.count(where: { $0 == UInt8(ascii: "\n") }) == Self.lines.count)
    }

    /// The access line's duration: whole milliseconds, a point and two decimals, rounded half
    /// away from zero; nothing negative, nothing unbounded.
    @Test(arguments: [
        (0.0, "0.00"), (0.000_004, "0.00"), (0.000_005, "0.01"), (0.000_03, "0.03"), (0.001_25, "1.25"),
        (0.012_345, "12.35"), (0.1, "100.00"), (1.5, "1500.00"), (12.345_678, "12345.68"), (-3.0, "0.00"),
        (Double.nan, "0.00"), (1e300, "1000000000.00"),
    ])
    func durationsHaveTwoDecimals(_ seconds: Double, _ expected: String) {
        #expect(AppRouter.milliseconds(seconds) == expected)
    }

    @Test func onlyAPlainJSONStreamTakesLinesDirectly() {
        let json = StreamLogHandler(stream: .standardError, format: .json)
        #expect(AccessLogLine.directStream(for: Logger(label: "a", handler: json)) != nil)
        #expect(AccessLogLine.directStream(for: Logger(label: "a", handler: json, logLevel: .debug)) != nil)
        #expect(AccessLogLine.directStream(for: Logger(label: "a", handler: json, logLevel: .notice)) == nil)
        var tagged = Logger(label: "a", handler: json)
        tagged[metadataKey: "instance"] = "one"
        #expect(AccessLogLine.directStream(for: tagged) == nil)
        let text = StreamLogHandler(stream: .standardError, format: .text)
        #expect(AccessLogLine.directStream(for: Logger(label: "a", handler: text)) == nil)
        #expect(AccessLogLine.directStream(for: Logger(label: "a", handler: InMemoryLogHandler())) == nil)
    }
}
