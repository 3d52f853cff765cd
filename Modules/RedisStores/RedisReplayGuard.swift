public import Foundation
public import RedisClient
public import RequestSigning

/// A ``ReplayGuard`` in Redis, shared by every replica that uses the same Redis: a nonce seen by
/// any of them is refused by all.
///
/// Each check is one command, `SET <prefix><key id length>:<key id>:<nonce> 1 NX PX <ms>`, with
/// the milliseconds left until the signature stops being acceptable (at least 1): `OK` means
/// fresh, no reply means replayed, and Redis drops the key when the window ends, so its memory
/// is bounded by the request rate times the window (about 150 bytes per nonce). The key id's
/// length comes first, so `a:b` with nonce `c` and `a` with nonce `b:c` are different keys.
///
/// Checks made at the same time share round trips: the client writes each call on a shared
/// connection without waiting for earlier replies, so a busy server answers many checks per
/// read and write.
///
/// When Redis cannot be asked (refused, timed out, the pool is exhausted, an error reply), the
/// answer is ``ReplayCheckResult/storeUnavailable(_:)`` naming the store and what failed, and the
/// verifier refuses the request (it fails closed). The client reconnects by itself, so checks
/// succeed again as soon as Redis is back.
///
/// ```swift
/// let redis = RedisClient(configuration: try RedisConfiguration(url: "redis://127.0.0.1:6379"), eventLoops: loops)
/// let verifier = SignatureVerifier(keyRing: ring, replayGuard: RedisReplayGuard(client: redis))
/// ```
public struct RedisReplayGuard: ReplayGuard {
    /// The client checks go through; calls use its command timeout.
    public let client: RedisClient
    /// What every key starts with, `swifty:replay:` by default.
    public let keyPrefix: String
    private let prefixBytes: [UInt8]

    /// Creates a guard.
    /// - Parameters:
    ///   - client: The client of the Redis the replicas share.
    ///   - keyPrefix: What every key starts with; give each set of replicas that must not see
    ///     each other's nonces a prefix of its own.
    public init(client: RedisClient, keyPrefix: String = "swifty:replay:") {
        self.client = client
        self.keyPrefix = keyPrefix
        prefixBytes = Array(keyPrefix.utf8)
    }

    /// The Redis key of a nonce: the prefix, the key id's byte count, `:`, the key id, `:`, the
    /// nonce.
    public func key(for nonce: ReplayNonce) -> [UInt8] {
        nonce.withUTF8 { keyID, nonce in
            var key = prefixBytes
            key.reserveCapacity(prefixBytes.count + 6 + keyID.count + nonce.count)
            key.append(contentsOf: String(keyID.count).utf8)
            key.append(UInt8(ascii: ":"))
            key.append(contentsOf: keyID)
            key.append(UInt8(ascii: ":"))
            key.append(contentsOf: nonce)
            return key
        }
    }

    /// Records the nonce with `SET ... NX PX`; see ``ReplayGuard``.
    nonisolated(nonsending)
        public func checkAndRemember(_ nonce: ReplayNonce, expiresAt: Date, now: Date) async -> ReplayCheckResult
    {
        let milliseconds = (expiresAt.timeIntervalSince(now) * 1_000).rounded(.up)
        let window = milliseconds.isFinite ? Int(min(max(1, milliseconds), 1e12)) : 1
        let command: [RedisArgument] = [
            "SET", RedisArgument(bytes: key(for: nonce)), "1", "NX", "PX", RedisArgument(window),
        ]
        let reply: RedisValue
        do {
            reply = try await client.send(command)
        } catch let error as RedisError where error.code == .server {
            return .storeUnavailable("\(store) refused SET NX: \(error.serverMessage ?? error.message)")
        } catch {
            // A RedisError's message holds no password nor argument.
            return .storeUnavailable("\(store) failed: \(error)")
        }
        switch reply {
        case .simpleString("OK"): return .fresh
        case .null: return .replayed
        default: return .storeUnavailable("\(store) answered SET NX with an unexpected reply (\(kind(of: reply)))")
        }
    }

    /// The store, for messages: its address, never its credentials.
    private var store: String { "the Redis replay store at \(client.configuration.endpoint)" }

    private func kind(of reply: RedisValue) -> String {
        switch reply {
        case .simpleString: "a status"
        case .error: "an error"
        case .integer: "an integer"
        case .bulkString: "a bulk string"
        case .null: "nil"
        case .array: "an array"
        }
    }
}
