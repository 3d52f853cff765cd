import EventLoops
import RedisClient
import RedisTestSupport

/// Redis clients of a test, each on loops of its own, as two daemons would have.
enum RedisClients {
    /// Runs `body` with `count` clients of `server`, and shuts them and their loops down afterwards.
    static func with(
        _ server: RedisServer, count: Int = 1, _ body: ([RedisClient]) async throws -> Void
    ) async throws {
        var configuration = RedisConfiguration(endpoint: server.endpoint)
        configuration.commandTimeout = .seconds(5)
        // A Redis restarted by a test is found again within a few hundred milliseconds.
        configuration.reconnectBackoff = .init(initial: .milliseconds(20), maximum: .milliseconds(200))
        var groups: [EventLoopGroup] = []
        var clients: [RedisClient] = []
        for _ in 0..<count {
            let loops = try EventLoopGroup(loopCount: 1, name: "redis-test")
            groups.append(loops)
            clients.append(RedisClient(configuration: configuration, eventLoops: loops))
        }
        func stop() async {
            for client in clients { await client.shutdown() }
            for loops in groups { await loops.shutdown() }
        }
        do {
            try await body(clients)
            await stop()
        } catch {
            await stop()
            throw error
        }
    }
}
