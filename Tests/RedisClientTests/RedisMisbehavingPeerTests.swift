import EventLoops
import RedisClient
import ServiceTesting
import Testing

/// Peers that are not a working Redis: silent, closing, or answering with what is not RESP.
@Suite(.timeLimit(.minutes(1)))
struct RedisMisbehavingPeerTests {
    private func call(
        _ server: ScriptedSocketServer, configure: (inout RedisConfiguration) -> Void = { _ in }
    ) async throws -> RedisError? {
        var configuration = RedisConfiguration(endpoint: .tcp(host: "127.0.0.1", port: server.port))
        configuration.commandTimeout = .seconds(20)
        configure(&configuration)
        let loops = try EventLoopGroupForTests.make()
        let client = RedisClient(configuration: configuration, eventLoops: loops)
        let error = await redisError { try await client.send(["PING"]) }
        await client.shutdown()
        await loops.shutdown()
        return error
    }

    @Test func aPeerSilentAfterConnectingFailsTheConnectWithinItsTimeout() async throws {
        try await ScriptedSocketServer.withServer(script: [.pause(.seconds(10))]) { server throws in
            let error = try await call(server) {
                $0.credentials = RedisCredentials(password: "silent-Secret")
                $0.connectTimeout = .milliseconds(200)
            }
            #expect(error?.code == .connectionFailed)
            #expect(error?.message.contains("no connection to 127.0.0.1:\(server.port) within") == true)
            #expect(error?.description.contains("silent-Secret") == false)
        }
    }

    @Test func aPeerThatClosesFailsTheCallAsClosed() async throws {
        try await ScriptedSocketServer.withServer(script: [.close]) { server throws in
            let error = try await call(server)
            #expect(error?.code == .connectionClosed)
        }
    }

    @Test func aReplyThatIsNotRESPIsAProtocolError() async throws {
        try await ScriptedSocketServer.withServer(script: [.send("HTTP/1.1 200 OK\r\n\r\n"), .pause(.seconds(5))]) {
            server throws in
            let error = try await call(server)
            #expect(error?.code == .protocolError)
            #expect(error?.message.hasPrefix("PING: the reply is not valid RESP") == true)
        }
    }
}
