package import Foundation

/// The canonical form of a JSON document, for comparing documents by value (an idempotent
/// request repeated with its members in another order is the same request).
package enum JSONCanonicalForm {
    /// The document in `data`, checked with the decoder's strict rules, written compactly with
    /// the members of every object sorted by name and strings escaped one way; numbers keep
    /// their text.
    /// - Throws: `DecodingError.dataCorrupted` when `data` is not strict JSON.
    package static func bytes(of data: Data) throws(DecodingError) -> Data {
        do {
            return try JSONTape.scan(data, dateDecoding: .deferredToDate).canonicalDocument()
        } catch {
            throw error.decodingError
        }
    }
}
