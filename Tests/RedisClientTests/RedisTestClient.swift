import EventLoops
import RedisClient
import RedisTestSupport

/// Runs `body` with a client of `server` on loops of its own, and shuts both down afterwards.
func withClient(
    _ server: RedisServer, loopCount: Int = 2, configure: (inout RedisConfiguration) -> Void = { _ in },
    _ body: (RedisClient) async throws -> Void
) async throws {
    try await server.withClient(loopCount: loopCount, configure: configure, body)
}

/// Whether `client` answers `PING` within about 5 s (after its server was restarted), on
/// `loop`'s pool when one is given.
func answersAgain(_ client: RedisClient, on loop: EventLoop? = nil) async throws -> Bool {
    for _ in 0..<200 {
        let reply: RedisValue?
        if let loop {
            reply = try? await send(["PING"], on: loop, client).get()
        } else {
            reply = try? await client.send(["PING"])
        }
        if reply == .simpleString("PONG") { return true }
        try await Task.sleep(for: .milliseconds(25))
    }
    return false
}

/// Sends from a task that prefers `loop`, so the call goes to that loop's pool.
func send(
    _ command: [RedisArgument],
    on loop: EventLoop,
    _ client: RedisClient
) async -> Result<RedisValue, RedisError> {
    await withTaskExecutorPreference(loop) {
        do {
            return .success(try await client.send(command))
        } catch {
            return .failure(error as? RedisError ?? RedisError(.server, "\(error)"))
        }
    }
}

/// The error a call threw, or `nil` when it succeeded.
func redisError(_ call: () async throws -> RedisValue) async -> RedisError? {
    do {
        _ = try await call()
        return nil
    } catch {
        return error as? RedisError
    }
}

extension RedisValue {
    /// A bulk string of `text`'s bytes.
    static func bulk(_ text: String) -> RedisValue { .bulkString(Array(text.utf8)) }
}

/// The loops of a test that runs without ``withClient(_:loopCount:configure:_:)``.
enum EventLoopGroupForTests {
    /// One loop, named for the tests.
    static func make() throws -> EventLoopGroup { try EventLoopGroup(loopCount: 1, name: "redis-test") }
}
