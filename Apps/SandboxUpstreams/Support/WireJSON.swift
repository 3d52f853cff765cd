import Foundation

/// How the sandbox writes JSON answers: compact, members sorted by name, slashes unescaped.
enum WireJSON {
    /// The encoder for every answer body.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// A timestamp as RFC 3339 text in UTC with whole seconds: `2026-03-01T12:00:00Z`.
    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
