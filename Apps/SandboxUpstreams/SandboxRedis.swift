import EventLoops
import RedisClient

/// The sandbox's Redis: the client and the loops it runs on (shared with the three upstreams'
/// servers), owned by one ``SandboxUpstreams`` and stopped after its servers.
struct SandboxRedis: Sendable {
    let loops: EventLoopGroup
    let client: RedisClient
    let ledger: RedisPaymentLedger

    /// Makes the loops and the client, and seeds the ledger's wallets where absent.
    /// - Throws: ``SandboxError`` `startFailed` when the loops cannot be made or Redis cannot be
    ///   reached (everything made is stopped again).
    static func start(
        _ configuration: RedisConfiguration, keyPrefix: String, threadCount: Int, metrics: SandboxMetrics
    ) async throws(SandboxError) -> SandboxRedis {
        let loops: EventLoopGroup
        do {
            loops = try EventLoopGroup(loopCount: threadCount, name: "sandbox")
        } catch {
            throw SandboxError(.startFailed, "the network threads: \(error)")
        }
        let client = RedisClient(configuration: configuration, eventLoops: loops)
        let ledger = RedisPaymentLedger(client: client, keyPrefix: keyPrefix, metrics: metrics)
        let redis = SandboxRedis(loops: loops, client: client, ledger: ledger)
        do throws(LedgerStoreError) {
            try await ledger.seed()
        } catch {
            await redis.stop()
            throw SandboxError(.startFailed, "\(error)")
        }
        return redis
    }

    /// Stops the client, then the loops; call it after the servers on the loops have stopped.
    func stop() async {
        await client.shutdown()
        await loops.shutdown()
    }
}
