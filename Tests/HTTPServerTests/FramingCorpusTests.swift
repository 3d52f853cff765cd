import HTTPFramingCorpus
import HTTPServer
import Testing

/// Runs the framing corpus against the bare server with the echo handler (200 for every request
/// that reaches it): each case on a fresh connection, checking every answer and the
/// connection's state after the last one.
struct FramingCorpusTests {
    /// One server for the whole corpus (default limits), started on first use.
    static let server: HTTPServer = {
        let server = HTTPServer(configuration: .init(threadCount: 2), handler: echoHandler)
        try? server.start()
        return server
    }()

    @Test func corpusCoversEnoughFramings() {
        #expect(FramingCorpus.all.count >= 80)
        #expect(Set(FramingCorpus.all.map(\.name)).count == FramingCorpus.all.count, "names must be unique")
    }

    @Test(.serialized, arguments: FramingCorpus.all)
    func framingGetsItsAnswer(_ framing: FramingCase) async throws {
        let port = Self.server.port
        try #require(port > 0, "the corpus server did not start")
        let mismatches = await framing.mismatches(against: FramingTarget(port: port, servedStatus: 200))
        #expect(mismatches.isEmpty, "\(mismatches)")
    }
}
