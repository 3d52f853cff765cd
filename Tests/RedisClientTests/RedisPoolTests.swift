import EventLoops
import Foundation
import RedisClient
import RedisTestSupport
import Testing

@Suite(.timeLimit(.minutes(1)))
struct RedisPoolTests {
    @Test func manyConcurrentCallsShareABoundedPool() async throws {
        try await RedisServer.with { server throws in
            try await withClient(server, loopCount: 2, configure: { $0.maximumConnectionsPerLoop = 2 }) {
                client throws in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<300 {
                        group.addTask {
                            _ = try await client.send(["INCR", "shared"])
                            _ = try await client.send(["SET", RedisArgument("own-\(index)"), RedisArgument(index)])
                            let read = try await client.send(["GET", RedisArgument("own-\(index)")])
                            #expect(read.integerValue == Int64(index))
                        }
                    }
                    try await group.waitForAll()
                }
                #expect(try await client.send(["GET", "shared"]).integerValue == 300)
                // Every connection this client opened, and the one asking, are listed.
                let list = try #require(try await client.send(["CLIENT", "LIST"]).stringValue)
                let connections = list.split(separator: "\n").count
                #expect(connections >= 1)
                #expect(connections <= 2 * 2)
            }
        }
    }

    @Test func callsBeyondTheWaitingBoundFailAtOnce() async throws {
        try await RedisServer.with { server throws in
            try await withClient(server) { observer in
                try await withClient(
                    server, loopCount: 1,
                    configure: {
                        $0.maximumConnectionsPerLoop = 1
                        $0.maximumWaitersPerLoop = 1
                    }
                ) { client throws in
                    let blocked = Task { try await client.send(["BLPOP", "queue", "20"], timeout: .seconds(30)) }
                    // Wait (bounded) until Redis holds the one connection in BLPOP.
                    var isBlocked = false
                    for _ in 0..<200 where !isBlocked {
                        let info = try await observer.send(["INFO", "clients"]).stringValue ?? ""
                        isBlocked = info.contains("blocked_clients:1")
                        if !isBlocked { try await Task.sleep(for: .milliseconds(20)) }
                    }
                    #expect(isBlocked)
                    let outcomes = try await withThrowingTaskGroup(of: RedisError?.self) { group in
                        for _ in 0..<5 { group.addTask { await redisError { try await client.send(["PING"]) } } }
                        var outcomes: [RedisError?] = []
                        for try await outcome in group {
                            outcomes.append(outcome)
                            // The refused calls come back while BLPOP still holds the connection.
                            if outcomes.count == 4 { _ = try await observer.send(["LPUSH", "queue", "item"]) }
                        }
                        return outcomes
                    }
                    #expect(outcomes.count { $0?.code == .poolExhausted } == 4)
                    #expect(outcomes.count { $0 == nil } == 1)
                    #expect(try await blocked.value == .array([.bulk("queue"), .bulk("item")]))
                }
            }
        }
    }

    @Test func aCallWithoutAReplyInTimeFailsAndTheClientGoesOn() async throws {
        try await RedisServer.with { server throws in
            try await withClient(server, loopCount: 1, configure: { $0.maximumConnectionsPerLoop = 1 }) {
                client throws in
                let error = await redisError {
                    try await client.send(["BLPOP", "never", "10"], timeout: .milliseconds(200))
                }
                #expect(error?.code == .timedOut)
                #expect(error?.message.hasPrefix("BLPOP had no reply within") == true)
                // The connection was replaced: the late answer to BLPOP can never be read as PING's.
                #expect(try await client.send(["PING"]) == .simpleString("PONG"))
                #expect(try await client.send(["ECHO", "after"]) == .bulk("after"))
            }
        }
    }

    @Test func aCancelledCallFailsAsCancelled() async throws {
        try await RedisServer.with { server throws in
            try await withClient(server) { client throws in
                let call = Task { try await client.send(["BLPOP", "never", "10"], timeout: .seconds(30)) }
                try await Task.sleep(for: .milliseconds(100))
                call.cancel()
                let error = await redisError { try await call.value }
                #expect(error?.code == .cancelled)
                #expect(try await client.send(["PING"]) == .simpleString("PONG"))
            }
        }
    }

    @Test func callsFailPromptlyWhileRedisIsDownAndSucceedOnceItIsBack() async throws {
        try await RedisServer.with(stablePort: true) { server throws in try await reconnects(server) }
    }

    private func reconnects(_ server: RedisServer) async throws {
        try await withClient(
            server,
            configure: {
                $0.reconnectBackoff = .init(initial: .milliseconds(20), maximum: .milliseconds(200))
                // A call that hung while Redis is down would fail with timedOut, not connectionFailed.
                $0.commandTimeout = .seconds(20)
            }
        ) { client throws in
            #expect(try await client.send(["SET", "before", "1"]) == .simpleString("OK"))
            await server.kill()
            var codes: [RedisError.Code] = []
            for _ in 0..<5 {
                let error = await redisError { try await client.send(["GET", "before"]) }
                codes.append(error?.code ?? .server)
            }
            // An idle connection may be found closed by the first call; then no connection opens.
            #expect(codes.dropFirst().allSatisfy { $0 == .connectionFailed }, "\(codes)")
            #expect(codes.allSatisfy { $0 == .connectionFailed || $0 == .connectionClosed }, "\(codes)")
            try await server.restart()
            #expect(try await answersAgain(client))
            #expect(try await client.send(["SET", "after", "1"]) == .simpleString("OK"))
        }
    }

    @Test func aServerThatIsNotThereFailsAtOnceWithBackoff() async throws {
        // A socket path in no directory: nothing can listen there, whatever other tests run.
        let path = "/nonexistent-\(UInt32.random(in: 0...UInt32.max))/redis.sock"
        let loops = try EventLoopGroup(loopCount: 1, name: "redis-test")
        var configuration = RedisConfiguration(endpoint: .unixSocket(path: path))
        configuration.commandTimeout = .seconds(20)
        configuration.reconnectBackoff = .init(initial: .seconds(10), maximum: .seconds(10))
        let client = RedisClient(configuration: configuration, eventLoops: loops)
        let first = await redisError { try await client.send(["PING"]) }
        #expect(first?.code == .connectionFailed)
        #expect(first?.message.contains("could not connect to unix:\(path)") == true)
        let second = await redisError { try await client.send(["PING"]) }
        #expect(second?.code == .connectionFailed)
        #expect(second?.message.contains("next attempt in") == true)
        let unknownName = RedisClient(
            configuration: RedisConfiguration(endpoint: .tcp(host: "redis.invalid", port: 6379)), eventLoops: loops)
        let named = await redisError { try await unknownName.send(["PING"]) }
        #expect(named?.code == .connectionFailed)
        #expect(named?.message.contains("the name 'redis.invalid' did not resolve") == true)
        await unknownName.shutdown()
        await client.shutdown()
        await loops.shutdown()
    }

    @Test func aHostNameIsLookedUp() async throws {
        try await RedisServer.with { server throws in
            let port = try #require(server.port)
            let loops = try EventLoopGroup(loopCount: 1, name: "redis-test")
            let client = RedisClient(
                configuration: RedisConfiguration(endpoint: .tcp(host: "localhost", port: port)), eventLoops: loops)
            #expect(try await client.send(["PING"]) == .simpleString("PONG"))
            #expect(try await client.pipeline([["PING"], ["ECHO", "x"]]) == [.simpleString("PONG"), .bulk("x")])
            await client.shutdown()
            await loops.shutdown()
        }
    }

    @Test func aShutDownClientFailsCallsInFlightAndNewOnes() async throws {
        try await RedisServer.with { server throws in
            let loops = try EventLoopGroup(loopCount: 1, name: "redis-test")
            let client = RedisClient(configuration: RedisConfiguration(endpoint: server.endpoint), eventLoops: loops)
            #expect(try await client.send(["PING"]) == .simpleString("PONG"))
            let inFlight = Task { try await client.send(["BLPOP", "never", "10"], timeout: .seconds(30)) }
            try await Task.sleep(for: .milliseconds(100))
            await client.shutdown()
            let during = await redisError { try await inFlight.value }
            #expect(during?.code == .shutDown)
            let after = await redisError { try await client.send(["PING"]) }
            #expect(after?.code == .shutDown)
            await client.shutdown()
            await loops.shutdown()
        }
    }
}
