import Foundation
import HTTPServer
import HTTPTypes
import Testing

/// Runs the framing corpus against one server: each case on a fresh connection, checking every
/// answer and the connection's state after the last one.
struct FramingCorpusTests {
    /// One server for the whole corpus (default limits), started on first use.
    static let server: HTTPServer = {
        let server = HTTPServer(configuration: .init(threadCount: 2), handler: echoHandler)
        try? server.start()
        return server
    }()

    /// What a client saw for one case.
    struct Outcome: Sendable {
        var responses: [RawConnection.Response] = []
        var closed = false
        var followUpStatus: Int?
    }

    @Test func corpusCoversEnoughFramings() {
        #expect(FramingCorpus.all.count >= 80)
        #expect(Set(FramingCorpus.all.map(\.name)).count == FramingCorpus.all.count, "names must be unique")
    }

    @Test(.serialized, arguments: FramingCorpus.all)
    func framingGetsItsAnswer(_ framing: FramingCase) async throws {
        let port = Self.server.port
        try #require(port > 0, "the corpus server did not start")
        let outcome = try await blocking { () -> Outcome in
            try Self.run(framing, port: port)
        }
        #expect(outcome.responses.map(\.status) == framing.statuses)
        for response in outcome.responses where response.status >= 400 {
            #expect(response.header("Content-Type") == "application/problem+json")
            #expect(response.header("Connection")?.lowercased() == "close")
            let problem = try? JSONDecoder().decode(ProblemDetails.self, from: Data(response.body))
            #expect(problem?.status == response.status)
        }
        switch framing.after {
        case .closed:
            #expect(outcome.closed, "the server must close the connection")
        case .open:
            #expect(outcome.followUpStatus == 200, "the connection must serve a further request")
        }
    }

    static func run(_ framing: FramingCase, port: Int) throws -> Outcome {
        let connection = try RawConnection(port: port, timeout: .seconds(5))
        // The server may refuse and stop reading before every byte is sent.
        try? connection.send(framing.bytes)
        if framing.halfClose { connection.shutdownWrite() }
        var outcome = Outcome()
        let isHead = framing.bytes.starts(with: Array("HEAD ".utf8))
        while outcome.responses.count < framing.statuses.count {
            guard let response = try? connection.readResponse(bodyless: isHead) else { break }
            outcome.responses.append(response)
        }
        switch framing.after {
        case .closed:
            outcome.closed = connection.waitForClose()
        case .open:
            try connection.send("GET /next HTTP/1.1\r\nHost: x\r\n\r\n")
            outcome.followUpStatus = (try? connection.readResponse())?.status
        }
        return outcome
    }
}
