import Foundation
import ServiceTesting
import Testing

/// Replays the JSON fuzz target's inputs without the fuzzer: every crash it saved
/// (Tools/fuzz/crashes/JSON) and its seed corpus go through ``JSONFuzzExercise`` and must keep its
/// invariants.
struct JSONFuzzReplayTests {
    static let inputs = FuzzInputs(target: "JSON", testFile: #filePath)

    @Test func theSeedCorpusIsThere() {
        #expect(Self.inputs.seeds.count >= 30)
    }

    @Test(arguments: inputs.names)
    func replaysKeepTheInvariants(_ name: String) throws {
        do {
            try JSONFuzzExercise.run(try Self.inputs.bytes(name))
        } catch {
            Issue.record("\(name): \(error)")
        }
    }
}
