import RedisClient

/// A ``RateLimitStore`` in Redis, shared by every daemon that uses the same Redis and key
/// prefix: a limit of N per window holds for all of them together.
///
/// The step is ``InMemoryRateLimitStore``'s GCRA, the reference. With `T` the key's theoretical
/// arrival time (absent: now), `I = window / quota` and `τ = window`:
///
///     arrival = max(T, now); next = arrival + I
///     next - now > τ  → refused: remaining 0, reset after arrival - now, retry after next - now - τ
///     otherwise       → T = next; allowed: remaining ⌊(τ - (next - now)) / I⌋, reset after next - now
///
/// The script runs it atomically (one `EVALSHA`, `EVAL` when Redis lacks the script), on Redis's
/// clock (`TIME`), so daemons whose clocks differ agree. Times are whole microseconds there (a Lua
/// number holds them exactly; nanoseconds since 1970 it would not), so `I` is rounded down to a
/// microsecond. A key expires when its allowance is whole again, so Redis holds only keys that
/// matter.
final class RedisRateLimitStore: RateLimitStore {
    /// The GCRA step; returns `{allowed (0 or 1), remaining, reset after µs, retry after µs}`.
    static let script = RedisScript(
        """
        local time = redis.call('TIME')
        local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
        local interval = tonumber(ARGV[1])
        local tolerance = tonumber(ARGV[2])
        local arrival = tonumber(redis.call('GET', KEYS[1])) or now
        if arrival < now then arrival = now end
        local nextArrival = arrival + interval
        if nextArrival - now > tolerance then
          return {0, 0, arrival - now, nextArrival - now - tolerance}
        end
        local ttl = math.ceil((nextArrival - now) / 1000)
        redis.call('SET', KEYS[1], string.format('%.0f', nextArrival), 'PX', ttl)
        return {1, math.floor((tolerance - (nextArrival - now)) / interval), nextArrival - now, 0}
        """)

    private let client: RedisClient
    private let keyPrefix: String

    /// Creates a store.
    /// - Parameters:
    ///   - client: The daemon's Redis client.
    ///   - keyPrefix: Put before `rate:` and the limiter's key.
    init(client: RedisClient, keyPrefix: String) {
        self.client = client
        self.keyPrefix = keyPrefix
    }

    /// The Redis key of a limiter key.
    func redisKey(_ key: String) -> String { keyPrefix + "rate:" + key }

    func acquire(_ key: String, policy: RateLimitPolicy) async throws -> RateLimitDecision {
        let interval = max(1, policy.emissionInterval / 1_000)
        let tolerance = policy.window.nanoseconds / 1_000
        let reply = try await client.evalScript(
            Self.script, keys: [RedisArgument(redisKey(key))],
            arguments: [RedisArgument(Int(interval)), RedisArgument(Int(tolerance))])
        guard let fields = reply.arrayValue, fields.count == 4,
            case .integer(let allowed) = fields[0], case .integer(let remaining) = fields[1],
            case .integer(let resetAfter) = fields[2], case .integer(let retryAfter) = fields[3]
        else {
            throw RedisError(.protocolError, "the rate-limit script answered something else than four integers")
        }
        return RateLimitDecision(
            allowed: allowed == 1,
            remaining: Int(remaining),
            resetAfter: .microseconds(resetAfter),
            retryAfter: allowed == 1 ? nil : .microseconds(retryAfter)
        )
    }
}
