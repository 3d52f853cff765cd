import EventLoops
import RedisClient
import RedisTestSupport
import Testing

@Suite(.timeLimit(.minutes(1)))
struct RedisCommandTests {
    @Test func setGetIncrDeleteRoundTrip() async throws {
        try await RedisServer.with { server throws in
            try await withClient(server) { client throws in
                #expect(try await client.send(["SET", "greeting", "hello"]) == .simpleString("OK"))
                #expect(try await client.send(["GET", "greeting"]) == .bulk("hello"))
                #expect(try await client.send(["INCR", "counter"]) == .integer(1))
                #expect(try await client.send(["INCRBY", "counter", "41"]) == .integer(42))
                #expect(try await client.send(["GET", "counter"]).integerValue == 42)
                #expect(try await client.send(["DEL", "greeting", "counter", "missing"]) == .integer(2))
                #expect(try await client.send(["GET", "greeting"]) == .null)
                #expect(try await client.send(["GET", "greeting"]).isNull)
            }
        }
    }

    @Test func valuesAndKeysAreBinarySafe() async throws {
        try await RedisServer.with { server throws in
            try await withClient(server) { client throws in
                let key: [UInt8] = [0x6B, 0x00, 0x0D, 0x0A, 0xFF]
                var value: [UInt8] = [0x00, 0x0D, 0x0A, 0x24, 0x2A, 0xC3, 0x28, 0xFF, 0xFE, 0x00]
                value += (0..<70_000).map { UInt8($0 % 256) }
                let set = try await client.send(["SET", RedisArgument(bytes: key), RedisArgument(bytes: value)])
                #expect(set == .simpleString("OK"))
                let read = try await client.send(["GET", RedisArgument(bytes: key)])
                #expect(read == .bulkString(value))
                #expect(read.stringValue == nil)
                #expect(try await client.send(["STRLEN", RedisArgument(bytes: key)]) == .integer(Int64(value.count)))
                #expect(try await client.send(["SET", "empty", ""]) == .simpleString("OK"))
                #expect(try await client.send(["GET", "empty"]) == .bulkString([]))
            }
        }
    }

    @Test func arraysHoldNullsAndNestedArrays() async throws {
        try await RedisServer.with { server throws in
            try await withClient(server) { client throws in
                #expect(try await client.send(["RPUSH", "list", "a", "b", "c"]) == .integer(3))
                #expect(
                    try await client.send(["LRANGE", "list", "0", "-1"])
                        == .array([.bulk("a"), .bulk("b"), .bulk("c")]))
                _ = try await client.send(["SET", "one", "1"])
                #expect(try await client.send(["MGET", "one", "none"]) == .array([.bulk("1"), .null]))
                #expect(try await client.send(["LRANGE", "nothing", "0", "-1"]) == .array([]))
                let transaction = try await client.pipeline([
                    ["MULTI"], ["INCR", "n"], ["LPUSH", "one", "x"], ["EXEC"],
                ])
                #expect(transaction[0] == .simpleString("OK"))
                #expect(transaction[1] == .simpleString("QUEUED"))
                let results = try #require(transaction[3].arrayValue)
                #expect(results.count == 2)
                #expect(results[0] == .integer(1))
                guard case .error(let message) = results[1] else {
                    Issue.record("EXEC's second result is \(results[1]), not an error")
                    return
                }
                #expect(message.hasPrefix("WRONGTYPE"))
            }
        }
    }

    @Test func anErrorReplyIsAServerErrorAndTheConnectionStaysUsable() async throws {
        try await RedisServer.with { server throws in
            try await withClient(server, loopCount: 1, configure: { $0.maximumConnectionsPerLoop = 1 }) {
                client throws in
                _ = try await client.send(["SET", "text", "value"])
                let error = await redisError { try await client.send(["LPUSH", "text", "secret-element"]) }
                #expect(error?.code == .server)
                #expect(error?.serverErrorPrefix == "WRONGTYPE")
                #expect(error?.message.hasPrefix("LPUSH failed: WRONGTYPE") == true)
                #expect(error?.description.contains("secret-element") == false)
                let unknown = await redisError { try await client.send(["NOSUCHCOMMAND", "x"]) }
                #expect(unknown?.code == .server)
                #expect(unknown?.serverErrorPrefix == "ERR")
                #expect(try await client.send(["GET", "text"]) == .bulk("value"))
                let empty = await redisError { try await client.send([] as [RedisArgument]) }
                #expect(empty?.code == .invalidArgument)
            }
        }
    }

    @Test func aPipelineOfAThousandCommandsAnswersInOrder() async throws {
        try await RedisServer.with { server throws in
            try await withClient(server) { client throws in
                var commands: [[RedisArgument]] = []
                for index in 0..<1000 {
                    commands.append(
                        index % 2 == 0
                            ? ["INCR", "order"] : ["SET", RedisArgument("key-\(index)"), RedisArgument(index)])
                }
                commands[500] = ["LPUSH", "key-1", "x"]
                let replies = try await client.pipeline(commands)
                #expect(replies.count == 1000)
                var expected: Int64 = 0
                for (index, reply) in replies.enumerated() {
                    if index == 500 {
                        guard case .error(let message) = reply else {
                            Issue.record("reply 500 is \(reply)")
                            continue
                        }
                        #expect(message.hasPrefix("WRONGTYPE"))
                    } else if index % 2 == 0 {
                        expected += 1
                        #expect(reply == .integer(expected), "reply \(index)")
                    } else {
                        #expect(reply == .simpleString("OK"), "reply \(index)")
                    }
                }
                #expect(try await client.send(["GET", "key-999"]) == .bulk("999"))
                #expect(try await client.pipeline([]) == [])
            }
        }
    }

    @Test func largePipelinesAndRepliesPassThroughFullSocketBuffers() async throws {
        try await RedisServer.with { server throws in
            try await withClient(server, loopCount: 1) { client throws in
                // 2000 values of 10 KiB: far more than the socket buffers hold, so the write waits
                // for room while the replies are read.
                let value = (0..<10_240).map { UInt8(truncatingIfNeeded: $0 &* 31) }
                let commands: [[RedisArgument]] = (0..<2000).map {
                    ["SET", RedisArgument("big-\($0)"), RedisArgument(bytes: value + [UInt8($0 % 256)])]
                }
                let replies = try await client.pipeline(commands, timeout: .seconds(30))
                #expect(replies.count == 2000)
                #expect(replies.allSatisfy { $0 == .simpleString("OK") })
                let reads = try await client.pipeline(
                    [["GET", "big-0"], ["GET", "big-1999"]], timeout: .seconds(30))
                #expect(reads == [.bulkString(value + [0]), .bulkString(value + [UInt8(1999 % 256)])])
                // One 8 MiB reply takes many reads over several turns of the loop.
                let huge = [UInt8](repeating: 0x61, count: 8 << 20)
                _ = try await client.send(["SET", "huge", RedisArgument(bytes: huge)], timeout: .seconds(30))
                #expect(try await client.send(["GET", "huge"], timeout: .seconds(30)) == .bulkString(huge))
            }
        }
    }

    @Test func theDatabaseIsSelectedOnEveryConnection() async throws {
        try await RedisServer.with { server throws in
            try await withClient(server, configure: { $0.database = 3 }) { third throws in
                try await withClient(server) { first throws in
                    _ = try await third.send(["SET", "where", "three"])
                    _ = try await first.send(["SET", "where", "zero"])
                    #expect(try await third.send(["GET", "where"]) == .bulk("three"))
                    #expect(try await first.send(["GET", "where"]) == .bulk("zero"))
                    #expect(try await third.send(["DBSIZE"]) == .integer(1))
                    _ = try await third.send(["FLUSHDB"])
                    #expect(try await first.send(["GET", "where"]) == .bulk("zero"))
                }
            }
            try await withClient(server, configure: { $0.database = 99 }) { outOfRange throws in
                let error = await redisError { try await outOfRange.send(["PING"]) }
                #expect(error?.code == .connectionFailed)
                #expect(error?.message.contains("SELECT 99 failed") == true)
            }
        }
    }

    @Test func aScriptRunsBySHAAndFallsBackToEvalOnce() async throws {
        try await RedisServer.with { server throws in
            try await withClient(server) { client throws in
                let script = RedisScript("return redis.call('INCRBY', KEYS[1], ARGV[1])")
                #expect(
                    try await client.send(["SCRIPT", "EXISTS", RedisArgument(script.sha1)]) == .array([.integer(0)]))
                #expect(try await client.evalScript(script, keys: ["total"], arguments: ["5"]) == .integer(5))
                // EVAL loaded it: the SHA-1 computed here is the one Redis computed.
                #expect(
                    try await client.send(["SCRIPT", "EXISTS", RedisArgument(script.sha1)]) == .array([.integer(1)]))
                #expect(try await client.send(["SCRIPT", "LOAD", RedisArgument(script.source)]) == .bulk(script.sha1))
                #expect(try await client.evalScript(script, keys: ["total"], arguments: ["2"]) == .integer(7))
                _ = try await client.send(["SCRIPT", "FLUSH"])
                #expect(try await client.evalScript(script, keys: ["total"], arguments: ["3"]) == .integer(10))
                let failing = RedisScript("return redis.call('LPUSH', KEYS[1], 'x')")
                let error = await redisError { try await client.evalScript(failing, keys: ["total"]) }
                #expect(error?.code == .server)
                #expect(error?.serverMessage?.contains("WRONGTYPE") == true)
            }
        }
    }

    @Test func aUnixSocketServerAnswers() async throws {
        try await RedisServer.with(unixSocket: true) { server throws in
            try await withClient(server) { client throws in
                #expect(try await client.send(["PING"]) == .simpleString("PONG"))
                #expect(try await client.send(["SET", "k", "v"]) == .simpleString("OK"))
                #expect(try await client.send(["GET", "k"]) == .bulk("v"))
            }
        }
    }

    @Test func callsFromAnEventLoopRunOnThatLoopsPool() async throws {
        try await RedisServer.with { server throws in
            try await withClient(server, loopCount: 2) { client throws in
                let loop = client.eventLoops.loops[1]
                let (replies, resumedOnLoop) = try await withTaskExecutorPreference(loop) {
                    var replies: [RedisValue] = []
                    var resumedOnLoop = true
                    // Calls from other threads would go to the loops in turn, opening a pool on each.
                    for index in 0..<4 {
                        replies.append(try await client.send(["ECHO", RedisArgument("call \(index)")]))
                        resumedOnLoop = resumedOnLoop && loop.isCurrent
                    }
                    return (replies, resumedOnLoop)
                }
                #expect(replies == (0..<4).map { .bulk("call \($0)") })
                #expect(resumedOnLoop)
                #expect(client.poolCount == 1)
            }
        }
    }
}
