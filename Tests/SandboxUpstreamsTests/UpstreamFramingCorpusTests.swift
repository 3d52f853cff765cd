import HTTPFramingCorpus
import SandboxUpstreams
import Testing

/// The framing corpus against a sandbox upstream (the user upstream, signatures verified): the
/// same answers and connection states as the bare server, where the handler's answer to the
/// corpus's unsigned requests is the signature check's 401.
@Suite(.timeLimit(.minutes(5)))
struct UpstreamFramingCorpusTests {
    @Test func everyFramingGetsItsAnswer() async throws {
        try await withSandbox { fixture in
            let target = FramingTarget(port: fixture.sandbox.port(for: .user), servedStatus: 401)
            for framing in FramingCorpus.all {
                let mismatches = await framing.mismatches(against: target)
                #expect(mismatches.isEmpty, "\(framing.name): \(mismatches)")
            }
        }
    }
}
