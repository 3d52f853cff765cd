import Foundation
import ServiceTesting
import Testing

/// Replays the HTTP1Response fuzz target's inputs without the fuzzer: every crash it saved
/// (Tools/fuzz/crashes/HTTP1Response) and its seed corpus go through ``HTTP1ResponseFuzzExercise`` and must keep its
/// invariants.
@Suite(.serialized)
struct HTTP1ResponseFuzzReplayTests {
    static let inputs = FuzzInputs(target: "HTTP1Response", testFile: #filePath)

    @Test func theSeedCorpusIsThere() {
        #expect(Self.inputs.seeds.count >= 20)
    }

    @Test(arguments: inputs.names)
    func replaysKeepTheInvariants(_ name: String) async throws {
        do {
            try await HTTP1ResponseFuzzExercise.run(try Self.inputs.bytes(name))
        } catch {
            Issue.record("\(name): \(error)")
        }
    }
}
