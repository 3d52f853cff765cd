import Foundation
import ServiceTesting
import Testing

/// Replays the PathsAndPercent fuzz target's inputs without the fuzzer: every crash it saved
/// (Tools/fuzz/crashes/PathsAndPercent) and its seed corpus go through ``PathsAndPercentFuzzExercise`` and must keep its
/// invariants.
struct PathsAndPercentFuzzReplayTests {
    static let inputs = FuzzInputs(target: "PathsAndPercent", testFile: #filePath)

    @Test func theSeedCorpusIsThere() {
        #expect(Self.inputs.seeds.count >= 20)
    }

    @Test(arguments: inputs.names)
    func replaysKeepTheInvariants(_ name: String) async throws {
        do {
            try await PathsAndPercentFuzzExercise.run(try Self.inputs.bytes(name))
        } catch {
            Issue.record("\(name): \(error)")
        }
    }
}
