import Foundation
import Testing

/// Replays the HTTP1Response fuzz target's inputs without the fuzzer: every crash it saved
/// (Tools/fuzz/crashes/HTTP1Response) and its seed corpus (Tools/fuzz/corpus/HTTP1Response) go through
/// ``HTTP1ResponseFuzzExercise`` and must keep its invariants.
@Suite(.serialized)
struct HTTP1ResponseFuzzReplayTests {
    static let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "../../Tools/fuzz"
    ).standardizedFileURL

    /// The saved inputs, by file name relative to Tools/fuzz.
    static let inputs: [String] = {
        var names: [String] = []
        for directory in ["crashes/HTTP1Response", "corpus/HTTP1Response"] {
            let files =
                (try? FileManager.default.contentsOfDirectory(atPath: fuzz.appendingPathComponent(directory).path))
                ?? []
            names += files.filter { !$0.hasPrefix(".") }.sorted().map { "\(directory)/\($0)" }
        }
        return names
    }()

    @Test func theSeedCorpusIsThere() {
        #expect(Self.inputs.filter { $0.hasPrefix("corpus/") }.count >= 20)
    }

    @Test(arguments: inputs)
    func replaysKeepTheInvariants(_ name: String) async throws {
        let input = try [UInt8](Data(contentsOf: Self.fuzz.appendingPathComponent(name)))
        do {
            try await HTTP1ResponseFuzzExercise.run(input)
        } catch let violation {
            Issue.record("\(name): \(violation)")
        }
    }
}
