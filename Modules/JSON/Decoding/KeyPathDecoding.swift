package import Foundation

/// Decodes a value found at a dotted key path inside a JSON document, without re-encoding.
package enum KeyPathDecoding {
    /// Decodes `type` from `data`, at `keyPath` (`"data.user"`) when given.
    /// - Throws: `DecodingError`, also for a key path with an empty member name.
    package static func decode<T: Decodable>(
        _ type: T.Type,
        from data: Data,
        keyPath: String?,
        decoder: StreamingJSONDecoder
    ) throws -> T {
        guard let keyPath, !keyPath.isEmpty else { return try decoder.decode(type, from: data) }
        let keys = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !keys.contains(where: \.isEmpty) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "bad key path \"\(keyPath)\""))
        }
        return try decoder.decode(type, from: data, keyPath: keys)
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
}
