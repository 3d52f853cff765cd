import Synchronization

/// The values decoded from one response body that several callers were handed (an upstream
/// answer shared among identical reads): the first caller to decode a value stores it, and the
/// others take it instead of decoding the same bytes again.
package final class SharedDecodings: Sendable {
    /// What was decoded: by whom (the decoding client, whose decoder settings it stands for), as
    /// which type and at which key path.
    package struct Key: Equatable, Sendable {
        let decoder: ObjectIdentifier
        let type: ObjectIdentifier
        let keyPath: String?

        /// Creates a key.
        package init<T>(decoder: AnyObject, type: T.Type, keyPath: String?) {
            self.decoder = ObjectIdentifier(decoder)
            self.type = ObjectIdentifier(type)
            self.keyPath = keyPath
        }
    }

    /// A few entries at most (one per type a caller asks for), so a list beats a table.
    private let values = Mutex<[(key: Key, value: any Sendable)]>([])

    /// Creates an empty store.
    package init() {}

    /// The value stored under `key`, or the one `decode` returns, stored for the next caller.
    /// `decode` runs outside the lock: two first callers on two threads may both decode.
    package func value<T: Sendable>(_ key: Key, decode: () throws -> T) rethrows -> T {
        let stored = values.withLock { values in values.first { $0.key == key }?.value }
        if let stored = stored as? T { return stored }
        let value = try decode()
        values.withLock { values in
            if !values.contains(where: { $0.key == key }) { values.append((key, value)) }
        }
        return value
    }
}
