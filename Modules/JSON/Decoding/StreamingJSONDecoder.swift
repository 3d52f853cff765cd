public import Foundation

/// The project's JSON decoder: reads a `Decodable` value straight from the bytes of a strict
/// JSON document, without an intermediate tree of values.
///
/// One pass checks the whole document and lists its values; the value's `init(from:)` then
/// reads them in place: keys are compared as bytes, strings and numbers are converted only when
/// asked for.
///
/// The syntax is strict RFC 8259, for every document: a repeated member name, a byte-order mark,
/// invalid UTF-8, a lone surrogate (escaped or not), nesting deeper than 256 levels and bytes
/// after the value are refused. Integer types take only plain integers that fit (`1e2` and
/// `100.0` are refused); floating-point types take numbers within their range (no `NaN` or
/// infinities). Members a value does not ask for are ignored, as Codable does. `Data` is read
/// from base64, `URL` from a string, `Decimal` from the number's exact text and `Date` as
/// ``dateDecoding`` says.
///
/// Every error is a `DecodingError` with the coding path of the value concerned.
public struct StreamingJSONDecoder: Sendable {
    /// How `Date` values are read; the same choices as ``StreamingJSONEncoder/DateEncoding``.
    public enum DateDecoding: Sendable {
        /// Seconds since 1 January 2001, as a number (Foundation's default).
        case deferredToDate
        /// Seconds since 1970, as a number.
        case secondsSince1970
        /// Milliseconds since 1970, as a number.
        case millisecondsSince1970
        /// An RFC 3339 / ISO 8601 string with a time zone, such as `2026-11-30T06:00:00Z`.
        case iso8601
    }

    /// How `Date` values are read.
    public var dateDecoding: DateDecoding

    /// Values handed to `Decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable]

    /// Creates a decoder.
    public init(dateDecoding: DateDecoding = .deferredToDate, userInfo: [CodingUserInfoKey: any Sendable] = [:]) {
        self.dateDecoding = dateDecoding
        self.userInfo = userInfo
    }

    /// Decodes `type` from the JSON document in `data`.
    /// - Throws: `DecodingError` naming what is wrong and where.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try decode(type, from: data, keyPath: [])
    }

    /// Decodes `type` from the JSON document in `data`, at `keyPath` (object keys from the top
    /// level down) when it is not empty.
    /// - Throws: `DecodingError` naming what is wrong and where.
    package func decode<T: Decodable>(_ type: T.Type, from data: Data, keyPath: [String]) throws -> T {
        let tape = try tape(of: data)
        tape.userInfoSource = userInfo
        var index = 0
        var codingPath: [any CodingKey] = []
        for key in keyPath {
            let pathKey = PathKey(key)
            guard tape[index].kind == .object else {
                throw tape.mismatch([String: Any].self, at: index, codingPath)
            }
            guard let member = tape.valueIndex(forKey: key, inObject: index, depth: codingPath.count) else {
                throw DecodingError.keyNotFound(
                    pathKey, .init(codingPath: codingPath, debugDescription: "no member \"\(key)\""))
            }
            codingPath.append(pathKey)
            index = member
        }
        return try JSONTapeDecoder.decode(type, tape: tape, index: index, codingPath: codingPath)
    }

    private func tape(of data: Data) throws(DecodingError) -> JSONTape {
        do {
            return try JSONTape.scan(data, dateDecoding: dateDecoding)
        } catch {
            throw error.decodingError
        }
    }

    /// A member name of a key path.
    private struct PathKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ stringValue: String) { self.stringValue = stringValue }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
