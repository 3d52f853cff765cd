import EventLoops
import RedisClient
import RedisTestSupport
import Testing

/// The reconnect backoff is the client's, not one loop's: Redis being down or back is the same
/// news on every loop.
@Suite(.timeLimit(.minutes(1)))
struct RedisReconnectTests {
    @Test func aBackoffHoldsOnEveryLoopAndEndsOnEveryLoopWhenOneReconnects() async throws {
        try await RedisServer.with(stablePort: true) { server throws in try await backoffIsShared(server) }
    }

    private func backoffIsShared(_ server: RedisServer) async throws {
        try await withClient(
            server, loopCount: 2,
            configure: {
                $0.reconnectBackoff = .init(initial: .milliseconds(500), maximum: .milliseconds(500))
                $0.commandTimeout = .seconds(20)
            }
        ) { client throws in
            let loops = client.eventLoops.loops
            for loop in loops {
                #expect(try await send(["PING"], on: loop, client).get() == .simpleString("PONG"))
            }
            await server.kill()

            // Loop 0 tries to reconnect and fails (its idle connection may first be found closed).
            var first: [RedisError] = []
            for _ in 0..<3 where !first.contains(where: { $0.code == .connectionFailed }) {
                if case .failure(let error) = await send(["PING"], on: loops[0], client) { first.append(error) }
            }
            #expect(first.contains { $0.code == .connectionFailed }, "\(first)")

            // Loop 1 makes no attempt of its own during that backoff: its calls fail at once,
            // naming the next attempt.
            var second: [RedisError] = []
            for _ in 0..<2 {
                if case .failure(let error) = await send(["PING"], on: loops[1], client) { second.append(error) }
            }
            let waited = second.filter { $0.code == .connectionFailed }
            #expect(!waited.isEmpty && waited.allSatisfy { $0.message.contains("next attempt in") }, "\(second)")

            // Back: once loop 0 has a connection again, loop 1's first call goes through too.
            try await server.restart()
            #expect(try await answersAgain(client, on: loops[0]))
            #expect(try await send(["PING"], on: loops[1], client).get() == .simpleString("PONG"))
        }
    }
}
