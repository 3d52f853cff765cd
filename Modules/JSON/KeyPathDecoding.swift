package import Foundation

/// Decodes a value found at a dotted key path inside a JSON document, without re-encoding.
///
/// When the decoder has default settings, the value is first decoded with
/// ``StreamingJSONDecoder``; on any error from it, it is decoded again with the given
/// `JSONDecoder`, so results and errors are always Foundation's.
package enum KeyPathDecoding {
    private static let keyPathKey = CodingUserInfoKey(rawValue: "swifty.keyPath")!

    /// Decodes `type` from `data`, at `keyPath` (`"data.user"`) when given.
    package static func decode<T: Decodable>(
        _ type: T.Type,
        from data: Data,
        keyPath: String?,
        decoder: JSONDecoder
    ) throws -> T {
        let fast = StreamingJSONDecoder.canStandIn(for: decoder)
        guard let keyPath, !keyPath.isEmpty else {
            if fast, let value = try? StreamingJSONDecoder(userInfo: decoder.userInfo).decode(type, from: data) {
                return value
            }
            return try decoder.decode(type, from: data)
        }
        let keys = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !keys.contains(where: \.isEmpty) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "bad key path \"\(keyPath)\""))
        }
        if fast {
            // The value sees the same user info as through Foundation below, key path included.
            let fastDecoder = StreamingJSONDecoder(userInfo: decoder.userInfo, keyPathUserInfoKey: keyPathKey)
            if let value = try? fastDecoder.decode(type, from: data, keyPath: keys) {
                return value
            }
        }
        // A decoder is a reference type: copying its settings into a new one keeps the caller's
        // decoder free of our user-info key, so concurrent calls never race on it.
        let scoped = JSONDecoder()
        scoped.dateDecodingStrategy = decoder.dateDecodingStrategy
        scoped.dataDecodingStrategy = decoder.dataDecodingStrategy
        scoped.keyDecodingStrategy = decoder.keyDecodingStrategy
        scoped.nonConformingFloatDecodingStrategy = decoder.nonConformingFloatDecodingStrategy
        scoped.userInfo = decoder.userInfo
        scoped.userInfo[keyPathKey] = keys
        return try scoped.decode(Nested<T>.self, from: data).value
    }

    /// A person-readable account of a decoding failure: what was wrong and where.
    package static func explain(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            let text = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
                .joined(separator: ".")
            return text.isEmpty ? "the top level" : "\"\(text)\""
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing key \"\(key.stringValue)\" at \(path(context))"
        case .typeMismatch(let type, let context):
            return "expected \(type) at \(path(context))"
        case .valueNotFound(let type, let context):
            return "expected \(type) but found null at \(path(context))"
        case .dataCorrupted(let context):
            return "\(context.debugDescription) at \(path(context))"
        @unknown default:
            return "\(error)"
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    private struct Nested<T: Decodable>: Decodable {
        let value: T

        init(from decoder: any Decoder) throws {
            let keys = decoder.userInfo[KeyPathDecoding.keyPathKey] as? [String] ?? []
            var container = try decoder.container(keyedBy: AnyKey.self)
            for key in keys.dropLast() {
                container = try container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey(stringValue: key))
            }
            value = try container.decode(T.self, forKey: AnyKey(stringValue: keys.last ?? ""))
        }
    }
}
