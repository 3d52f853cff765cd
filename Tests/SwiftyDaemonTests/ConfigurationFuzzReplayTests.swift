import Foundation
import ServiceTesting
import Testing

/// Replays the Configuration fuzz target's inputs without the fuzzer: every crash it saved
/// (Tools/fuzz/crashes/Configuration) and its seed corpus go through ``ConfigurationFuzzExercise`` and must keep its
/// invariants.
struct ConfigurationFuzzReplayTests {
    static let inputs = FuzzInputs(target: "Configuration", testFile: #filePath)

    @Test func theSeedCorpusIsThere() {
        #expect(Self.inputs.seeds.count >= 15)
    }

    @Test(arguments: inputs.names)
    func replaysKeepTheInvariants(_ name: String) throws {
        do {
            try ConfigurationFuzzExercise.run(try Self.inputs.bytes(name))
        } catch {
            Issue.record("\(name): \(error)")
        }
    }
}
