import AppLogging
import Foundation
import HTTPFramingCorpus
import HTTPServer
import HTTPTypes
import Testing

/// A handler's answer that cannot go out as it is: the server sends what it can and logs what it
/// changed, with the server's logger.
struct AnswerFaultTests {
    @Test func anInvalidStatusGoesOutAs500AndIsLogged() async throws {
        let memory = InMemoryLogHandler()
        let response = try await Self.answer(ServerResponse(status: 42, body: Data("x".utf8)), logTo: memory)
        #expect(response.status == 500)
        let records = memory.records.filter { $0.level == .error }
        #expect(records.map(\.message) == ["handler answered with an invalid status"])
        #expect(records.first?.metadata["status"] == "42")
    }

    @Test func aFieldThatWouldSplitTheAnswerIsDroppedAndLogged() async throws {
        let memory = InMemoryLogHandler()
        let forged = ServerResponse(
            status: 200, headers: ["X-Forged": "a\r\nSet-Cookie: b", "X-Kept": "c"], body: Data("ok".utf8))
        let response = try await Self.answer(forged, logTo: memory)
        #expect(response.status == 200)
        #expect(response.header("X-Forged") == nil && response.header("Set-Cookie") == nil)
        #expect(response.header("X-Kept") == "c")
        let records = memory.records.filter { $0.level == .warning }
        #expect(records.map(\.message) == ["dropped a response field with a malformed name or value"])
        #expect(records.first?.metadata["field"] == "X-Forged")
    }

    @Test func aSoundAnswerLogsNothing() async throws {
        let memory = InMemoryLogHandler()
        let response = try await Self.answer(ServerResponse(status: 204), logTo: memory)
        #expect(response.status == 204)
        #expect(memory.records.filter { $0.level >= .warning }.isEmpty)
    }

    /// The raw answer of a server whose handler answers `response`, logging to `memory`.
    private static func answer(_ response: ServerResponse, logTo memory: InMemoryLogHandler) async throws
        -> RawConnection.Response
    {
        let server = HTTPServer(configuration: .init(threadCount: 1), logger: Logger(label: "test", handler: memory)) {
            _ in response
        }
        try server.start()
        let answer: RawConnection.Response
        do {
            answer = try await exchange(port: server.port, "GET / HTTP/1.1\r\nHost: a\r\n\r\n")
        } catch {
            await server.shutdown(gracePeriod: .seconds(1))
            throw error
        }
        await server.shutdown(gracePeriod: .seconds(1))
        return answer
    }
}
