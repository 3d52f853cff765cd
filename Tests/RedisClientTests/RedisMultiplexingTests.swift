import EventLoops
import RedisClient
import RedisTestSupport
import Testing

/// Calls sharing one connection: replies matched to their own calls, timeouts and cancellations
/// that leave the connection in step, and a server lost with calls in flight.
@Suite struct RedisMultiplexingTests {
    /// One loop, one connection: every call made by these tests shares it.
    private func oneConnection(_ configuration: inout RedisConfiguration) {
        configuration.maximumConnectionsPerLoop = 1
        // Longer than the pauses below, so that only the calls given a short timeout time out.
        configuration.commandTimeout = .seconds(10)
    }

    /// How long the tests pause the server: long enough that the calls they place during the
    /// pause are placed before it ends, however loaded the machine.
    private let pauseMilliseconds = 3_000

    /// The id Redis gives the connection a call runs on.
    private func connectionID(_ client: RedisClient) async throws -> RedisValue {
        try await client.send(["CLIENT", "ID"])
    }

    /// Pauses every client of `server` for `milliseconds`, from a client of its own.
    private func pause(_ server: RedisServer, milliseconds: Int, mode: String = "ALL") async throws {
        try await withClient(server, loopCount: 1) { admin throws in
            #expect(
                try await admin.send(["CLIENT", "PAUSE", RedisArgument(milliseconds), RedisArgument(mode)])
                    == .simpleString("OK"))
        }
    }

    @Test func aThousandConcurrentCallsOnOneConnectionEachGetTheirOwnReply() async throws {
        try await RedisServer.with { server throws in
            try await withClient(server, loopCount: 1, configure: oneConnection) { client throws in
                let mismatches = try await withThrowingTaskGroup(of: Bool.self) { group in
                    for index in 0..<1_000 {
                        group.addTask {
                            if index.isMultiple(of: 2) {
                                let reply = try await client.send(["ECHO", RedisArgument("echo-\(index)")])
                                return reply == .bulk("echo-\(index)")
                            }
                            let reply = try await client.send([
                                "INCRBY", RedisArgument("counter-\(index)"), RedisArgument(index),
                            ])
                            return reply == .integer(Int64(index))
                        }
                    }
                    var mismatches = 0
                    for try await matched in group where !matched { mismatches += 1 }
                    return mismatches
                }
                #expect(mismatches == 0)
                // They all went over the one connection the client may keep.
                let clients = try await client.send(["CLIENT", "LIST"])
                guard case .bulkString(let list) = clients else {
                    Issue.record("CLIENT LIST answered \(clients)")
                    return
                }
                #expect(list.split(separator: UInt8(ascii: "\n")).count == 1)
            }
        }
    }

    @Test func aConnectionCarriesAtMostItsBoundAndCallsBeyondItWait() async throws {
        try await RedisServer.with { server throws in
            try await withClient(
                server, loopCount: 1,
                configure: {
                    $0.maximumConnectionsPerLoop = 1
                    $0.maximumPipelinedCommandsPerConnection = 4
                    $0.maximumWaitersPerLoop = 2
                    $0.commandTimeout = .seconds(10)
                }
            ) { client throws in
                #expect(try await client.send(["PING"]) == .simpleString("PONG"))
                try await pause(server, milliseconds: pauseMilliseconds)
                // 4 in flight on the connection and 2 waiting for room: the next finds no place.
                let calls = (0..<6).map { index in
                    Task { try await client.send(["ECHO", RedisArgument("bounded-\(index)")]) }
                }
                try await Task.sleep(for: .milliseconds(100))
                let refused = await redisError { try await client.send(["ECHO", "one too many"]) }
                #expect(refused?.code == .poolExhausted)
                for (index, call) in calls.enumerated() {
                    #expect(try await call.value == .bulk("bounded-\(index)"))
                }
            }
        }
    }

    @Test func aTimedOutCallLeavesItsConnectionInStep() async throws {
        try await RedisServer.with { server throws in
            try await withClient(server, loopCount: 1, configure: oneConnection) { client throws in
                let before = try await connectionID(client)
                try await pause(server, milliseconds: pauseMilliseconds)
                // The first call waits out the pause; the second, behind it, times out.
                let first = Task { try await client.send(["ECHO", "first"], timeout: .seconds(10)) }
                try await Task.sleep(for: .milliseconds(50))
                let late = await redisError { try await client.send(["ECHO", "late"], timeout: .milliseconds(100)) }
                #expect(late?.code == .timedOut)
                #expect(try await first.value == .bulk("first"))
                // The late reply was read and dropped, not taken for this call's.
                #expect(try await client.send(["ECHO", "next"]) == .bulk("next"))
                #expect(try await connectionID(client) == before)
            }
        }
    }

    @Test func aConnectionThatAnswersNothingInTimeIsReplaced() async throws {
        try await RedisServer.with { server throws in
            try await withClient(server, loopCount: 1, configure: oneConnection) { client throws in
                let before = try await connectionID(client)
                try await pause(server, milliseconds: pauseMilliseconds)
                let alone = await redisError { try await client.send(["ECHO", "alone"], timeout: .milliseconds(100)) }
                #expect(alone?.code == .timedOut)
                #expect(try await client.send(["ECHO", "after"]) == .bulk("after"))
                #expect(try await connectionID(client) != before)
            }
        }
    }

    @Test func cancelledCallsLeaveTheConnectionUsable() async throws {
        try await RedisServer.with { server throws in
            try await withClient(server, loopCount: 1, configure: oneConnection) { client throws in
                let before = try await connectionID(client)
                try await pause(server, milliseconds: pauseMilliseconds)
                let calls = (0..<40).map { index in
                    Task { try await client.send(["ECHO", RedisArgument("call-\(index)")], timeout: .seconds(10)) }
                }
                try await Task.sleep(for: .milliseconds(100))
                for (index, call) in calls.enumerated() where !index.isMultiple(of: 2) { call.cancel() }
                for (index, call) in calls.enumerated() {
                    if index.isMultiple(of: 2) {
                        #expect(try await call.value == .bulk("call-\(index)"))
                    } else {
                        let error = await redisError { try await call.value }
                        #expect(error?.code == .cancelled)
                    }
                }
                #expect(try await client.send(["ECHO", "after"]) == .bulk("after"))
                #expect(try await connectionID(client) == before)
            }
        }
    }

    @Test func aBlockingCommandGetsAConnectionOfItsOwn() async throws {
        try await RedisServer.with { server throws in
            try await withClient(
                server, loopCount: 1, configure: { $0.maximumConnectionsPerLoop = 2 }
            ) { client throws in
                #expect(try await client.send(["PING"]) == .simpleString("PONG"))
                let blocked = Task { try await client.send(["BLPOP", "queue", "10"], timeout: .seconds(30)) }
                try await Task.sleep(for: .milliseconds(100))
                // Queued behind BLPOP, the push would never reach Redis before BLPOP's own timeout.
                #expect(try await client.send(["LPUSH", "queue", "item"]) == .integer(1))
                #expect(try await blocked.value == .array([.bulk("queue"), .bulk("item")]))
            }
        }
    }

    @Test func aServerKilledWithCallsInFlightFailsThemAllAndTheClientRecovers() async throws {
        let server = try await RedisServer.start(stablePort: true)
        do {
            try await withClient(
                server, loopCount: 1,
                configure: {
                    $0.maximumConnectionsPerLoop = 1
                    $0.reconnectBackoff = .init(initial: .milliseconds(20), maximum: .milliseconds(200))
                    // A call left hanging would end with timedOut, which the test refuses.
                    $0.commandTimeout = .seconds(30)
                }
            ) { client throws in
                #expect(try await client.send(["PING"]) == .simpleString("PONG"))
                try await pause(server, milliseconds: 20_000, mode: "WRITE")
                let calls = (0..<200).map { index in
                    Task { try await client.send(["INCR", RedisArgument("key-\(index)")]) }
                }
                try await Task.sleep(for: .milliseconds(200))
                await server.kill()
                var codes: [RedisError.Code?] = []
                for call in calls { codes.append(await redisError { try await call.value }?.code) }
                #expect(
                    codes.allSatisfy { $0 == .connectionClosed || $0 == .connectionFailed },
                    "\(Set(codes.map { $0.map { "\($0)" } ?? "success" }))")
                try await server.restart()
                #expect(try await answersAgain(client))
                #expect(try await client.send(["INCR", "key-0"]) == .integer(1))
            }
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }
}
