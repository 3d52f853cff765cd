public import Foundation

/// Remembers the nonces of accepted signatures so that a captured request cannot be sent again.
///
/// Implement it to share the memory between instances (a database or cache shared by several
/// servers); use ``InMemoryReplayGuard`` for one process. The verifier calls it last, only for
/// signatures that passed every other check, so forged requests cannot fill it.
public protocol ReplayGuard: Sendable {
    /// Records a nonce unless it was already recorded for the key and has not expired.
    /// - Parameters:
    ///   - nonce: The signature's nonce.
    ///   - keyID: The key that made the signature (nonces are remembered per key).
    ///   - expiresAt: When the signature stops being acceptable; the nonce may be forgotten then.
    ///   - now: The verifier's current time.
    /// - Returns: Whether the nonce is fresh, replayed, or could not be recorded.
    nonisolated(nonsending)
        func checkAndRemember(nonce: String, keyID: String, expiresAt: Date, now: Date) async -> ReplayCheckResult
}

/// The answer of a ``ReplayGuard``.
public enum ReplayCheckResult: Sendable, Equatable {
    /// The nonce was not seen before and is now recorded.
    case fresh
    /// The nonce was already recorded for this key and has not expired.
    case replayed
    /// The guard is full of unexpired nonces and refuses new ones (it fails closed).
    case capacityExceeded
}
