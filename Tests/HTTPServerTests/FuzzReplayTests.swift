import Foundation
import ServiceTesting
import Testing

/// Replays the HTTPServer fuzz target's inputs without the fuzzer: every crash it saved
/// (Tools/fuzz/crashes/HTTPServer) and its seed corpus go through ``FuzzExercise`` and must keep its
/// invariants.
@Suite(.serialized)
struct FuzzReplayTests {
    static let inputs = FuzzInputs(target: "HTTPServer", testFile: #filePath)

    @Test func theSeedCorpusIsThere() {
        #expect(Self.inputs.seeds.count >= 30)
    }

    @Test(arguments: inputs.names)
    func replaysKeepTheInvariants(_ name: String) throws {
        do {
            try FuzzExercise.run(try Self.inputs.bytes(name))
        } catch {
            Issue.record("\(name): \(error)")
        }
    }
}
