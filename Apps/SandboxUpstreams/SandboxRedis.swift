import EventLoops
import RedisClient

/// The sandbox's Redis: the client, on the upstreams' loops, and the ledger it holds; owned by
/// one ``SandboxUpstreams`` and stopped after its servers.
struct SandboxRedis: Sendable {
    let client: RedisClient
    let ledger: RedisPaymentLedger

    /// Makes the client and seeds the ledger's wallets where absent.
    /// - Throws: ``SandboxError`` `startFailed` when Redis cannot be reached (the client is
    ///   stopped again).
    static func start(
        _ configuration: RedisConfiguration, keyPrefix: String, eventLoops: EventLoopGroup, metrics: SandboxMetrics
    ) async throws(SandboxError) -> SandboxRedis {
        let client = RedisClient(configuration: configuration, eventLoops: eventLoops)
        let ledger = RedisPaymentLedger(client: client, keyPrefix: keyPrefix, metrics: metrics)
        let redis = SandboxRedis(client: client, ledger: ledger)
        do throws(LedgerStoreError) {
            try await ledger.seed()
        } catch {
            await redis.stop()
            throw SandboxError(.startFailed, "\(error)")
        }
        return redis
    }

    /// Stops the client; call it after the servers on its loops have stopped.
    func stop() async {
        await client.shutdown()
    }
}
