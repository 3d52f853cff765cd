package import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A JSON decoder that reads a value straight from the bytes of a document, without an
/// intermediate tree of values, for Foundation's `JSONDecoder` with default settings.
///
/// One pass (``JSONByteScanner``) checks the whole document and lists its values; the value's
/// `init(from:)` then reads them in place: keys are compared as bytes, strings and numbers are
/// converted only when asked for.
///
/// It never succeeds with a result that differs from `JSONDecoder()`'s: where it is not sure it
/// throws, and the caller decodes with Foundation instead (``KeyPathDecoding`` does). It
/// throws for `Date`, `Data`, `URL`, `Decimal` and the 128-bit integers; for numbers that an
/// integer type would need to round or that parse to an infinite, subnormal or underflowing
/// floating-point value; for duplicate keys, keys with escapes or non-ASCII bytes, invalid
/// UTF-8, lone surrogates, nesting deeper than 256 levels and trailing bytes; for
/// `superDecoder`; and whenever any error was thrown during decoding, even one the value caught.
/// Its errors say little: they are meant to be replaced by Foundation's.
package struct StreamingJSONDecoder {
    /// Why the fast path gave up (only for debugging: callers fall back on any error).
    package struct Failure: Error, CustomStringConvertible {
        /// What was wrong or not supported.
        package let reason: StaticString

        /// The reason, as text.
        package var description: String { "\(reason)" }
    }

    /// Values handed to `Decoder.userInfo`.
    package var userInfo: [CodingUserInfoKey: any Sendable]

    /// When set, a decode at a key path also hands the key path (`[String]`) to the value's
    /// `userInfo` under this key, as ``KeyPathDecoding`` does through Foundation.
    package var keyPathUserInfoKey: CodingUserInfoKey?

    /// Creates a decoder.
    package init(userInfo: [CodingUserInfoKey: any Sendable] = [:], keyPathUserInfoKey: CodingUserInfoKey? = nil) {
        self.userInfo = userInfo
        self.keyPathUserInfoKey = keyPathUserInfoKey
    }

    /// Whether `decoder` has only default settings, so that this decoder gives its results.
    package static func canStandIn(for decoder: JSONDecoder) -> Bool {
        guard case .deferredToDate = decoder.dateDecodingStrategy,
            case .base64 = decoder.dataDecodingStrategy,
            case .useDefaultKeys = decoder.keyDecodingStrategy,
            case .throw = decoder.nonConformingFloatDecodingStrategy,
            !decoder.allowsJSON5, !decoder.assumesTopLevelDictionary
        else { return false }
        return true
    }

    /// Decodes `type` from the JSON document in `data`, at `keyPath` (object keys from the top
    /// level down) when it is not empty.
    ///
    /// - Throws: ``Failure`` or a value's own error whenever the result could differ from
    ///   Foundation's; decode with Foundation then.
    package func decode<T: Decodable>(_ type: T.Type, from data: Data, keyPath: [String] = []) throws -> T {
        let tape = try Self.tape(of: data)
        tape.userInfoSource = (userInfo, keyPathUserInfoKey.flatMap { keyPath.isEmpty ? nil : ($0, keyPath) })
        // Down the key path as Foundation's nested keyed containers would go, without them.
        var index = 0
        var codingPath: [any CodingKey] = []
        for key in keyPath {
            guard tape[index].kind == .object,
                let member = tape.valueIndex(forKey: key, inObject: index, depth: codingPath.count)
            else { throw tape.failure("no value at the key path") }
            codingPath.append(PathKey(key))
            index = member
        }
        let value = try JSONTapeDecoder.decode(type, tape: tape, index: index, codingPath: codingPath)
        guard !tape.failed else { throw Failure(reason: "an error was thrown while decoding") }
        return value
    }

    private static func tape(of data: Data) throws(Failure) -> JSONTape {
        let count = data.count
        guard let bytes = malloc(count + 1)?.assumingMemoryBound(to: UInt8.self) else {
            fatalError("out of memory copying a JSON document of \(count) bytes")
        }
        data.withUnsafeBytes { source in
            if let base = source.baseAddress { memcpy(bytes, base, count) }
        }
        bytes[count] = 0
        var scanner = JSONByteScanner(bytes: bytes, byteCount: count)
        do {
            try scanner.scanDocument()
        } catch {
            scanner.discard()
            free(bytes)
            throw error
        }
        return JSONTape(
            bytes: bytes,
            entries: scanner.takeEntries(),
            entryCount: scanner.entryCount
        )
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
