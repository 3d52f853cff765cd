public import Foundation

/// Remembers the nonces of accepted signatures so that a captured request cannot be sent again.
///
/// ``InMemoryReplayGuard`` serves one process; a store shared by several servers (Redis, with
/// `RedisReplayGuard` of the `RedisStores` library, or a database) serves several replicas, so
/// that a nonce seen by any of them is refused by all. The verifier calls every guard the same
/// way, last, only for signatures that passed every other check, so forged requests cannot fill
/// it.
public protocol ReplayGuard: Sendable {
    /// Records a nonce unless it was already recorded for its key and has not expired.
    ///
    /// It runs on the caller's executor; a guard that needs no I/O (the in-memory one) answers
    /// without suspending. A guard that cannot reach its store answers
    /// ``ReplayCheckResult/storeUnavailable(_:)`` rather than throwing, and never ``ReplayCheckResult/fresh``
    /// for a nonce it could not record.
    /// - Parameters:
    ///   - nonce: The key id and nonce of the signature.
    ///   - expiresAt: When the signature stops being acceptable; the nonce may be forgotten then.
    ///   - now: The verifier's current time.
    /// - Returns: Whether the nonce is fresh, replayed, or could not be checked.
    nonisolated(nonsending)
        func checkAndRemember(_ nonce: ReplayNonce, expiresAt: Date, now: Date) async -> ReplayCheckResult
}

/// The answer of a ``ReplayGuard``.
public enum ReplayCheckResult: Sendable, Equatable {
    /// The nonce was not seen before and is now recorded.
    case fresh
    /// The nonce was already recorded for this key and has not expired.
    case replayed
    /// The guard is full of unexpired nonces and refuses new ones (it fails closed).
    case capacityExceeded
    /// The guard's store could not be asked (unreachable, timed out, or answered an error), so
    /// the nonce is neither known fresh nor recorded: the verifier refuses the request (it fails
    /// closed). The reason names the store and what failed, and holds no secret.
    case storeUnavailable(String)
}
