import AppLifecycle
import AppLogging
import EventLoops
import RedisClient

/// The token cache and the rate-limit store, built from ``SharedStateSettings``: in this process's
/// memory, or in one Redis shared by several daemons through one ``RedisClient`` on the daemon's
/// event loops (so a handler's Redis call stays on its thread).
///
/// As a part of the daemon's ``ServiceGroup`` it is started after the event loops and before the
/// app server, so on drain it stops after the app server (no handler is left calling Redis) and
/// before the loops its connections live on.
struct SharedStateStores: LifecycleService {
    let name = "shared state"
    /// Where introspected bearer tokens are cached.
    let tokenCache: any TokenCache
    /// Where rate-limit state lives.
    let rateLimitStore: any RateLimitStore
    /// The rate-limit store's failures and outages.
    let rateLimitHealth: SharedStateHealth
    /// The client both Redis stores share; `nil` in memory.
    let redis: RedisClient?

    /// Builds the stores and shows their health in `metrics`.
    /// - Parameters:
    ///   - configuration: `sharedState`, `rateLimits.storeCapacity`.
    ///   - environment: For `$CREDENTIALS_DIRECTORY` (a relative password file).
    ///   - eventLoops: The app server's loops, which the Redis client's connections live on.
    ///   - metrics: Where the stores' errors and availability are shown.
    ///   - logger: Where outages are logged (once each).
    ///   - tokenCacheOverride: A token cache that replaces the configured one.
    /// - Throws: ``ConfigurationProblems`` when the Redis settings cannot be used.
    init(
        configuration: DaemonConfiguration,
        environment: [String: String],
        eventLoops: EventLoopGroup,
        metrics: Metrics,
        logger: Logger,
        tokenCacheOverride: (any TokenCache)?
    ) throws(ConfigurationProblems) {
        rateLimitHealth = SharedStateHealth(store: "rate_limits", logger: logger)
        metrics.addSharedState(rateLimitHealth)
        let settings = configuration.sharedState
        guard settings.usesRedis else {
            redis = nil
            tokenCache = tokenCacheOverride ?? InMemoryTokenCache()
            rateLimitStore = InMemoryRateLimitStore(capacity: configuration.rateLimits.storeCapacity)
            return
        }
        let client = RedisClient(
            configuration: try settings.redisConfiguration(environment: environment), eventLoops: eventLoops)
        redis = client
        if let tokenCacheOverride {
            tokenCache = tokenCacheOverride
        } else {
            let tokenCacheHealth = SharedStateHealth(store: "token_cache", logger: logger)
            metrics.addSharedState(tokenCacheHealth)
            tokenCache = RedisTokenCache(client: client, keyPrefix: settings.redis.keyPrefix, health: tokenCacheHealth)
        }
        rateLimitStore = RedisRateLimitStore(client: client, keyPrefix: settings.redis.keyPrefix)
    }

    func start() async throws {}

    func stop() async {
        await redis?.shutdown()
    }
}
