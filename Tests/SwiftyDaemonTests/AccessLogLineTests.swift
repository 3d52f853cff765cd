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
    ]

    @Test(arguments: lines)
    func directBytesEqualTheLoggersLine(_ line: AccessLogLine) {
        let date = Date(timeIntervalSince1970: 1_796_000_000.123)
        let record = LogRecord(
            date: date, level: .info, label: "swiftyd.access", message: "request", metadata: line.metadata,
            source: "swiftyd.access", file: #fileID, line: #line
        )
        let expected = LogLineFormatter.jsonBytes(record, newline: true)
        #expect(line.bytes(date: date, label: "swiftyd.access") == expected)
        #expect(String(decoding: expected, as: UTF8.self).hasSuffix("}\n"))
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
