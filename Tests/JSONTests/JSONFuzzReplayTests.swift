import Foundation
import Testing

/// Replays the JSON fuzz target's inputs without the fuzzer: every crash it saved
/// (Tools/fuzz/crashes/JSON) and its seed corpus (Tools/fuzz/corpus/JSON) go through
/// ``JSONFuzzExercise`` and must keep its invariants.
struct JSONFuzzReplayTests {
    static let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "../../Tools/fuzz"
    ).standardizedFileURL

    /// The saved inputs, by file name relative to Tools/fuzz.
    static let inputs: [String] = {
        var names: [String] = []
        for directory in ["crashes/JSON", "corpus/JSON"] {
            let files =
                (try? FileManager.default.contentsOfDirectory(atPath: fuzz.appendingPathComponent(directory).path))
                ?? []
            names += files.filter { !$0.hasPrefix(".") }.sorted().map { "\(directory)/\($0)" }
        }
        return names
    }()

    @Test func theSeedCorpusIsThere() {
        #expect(Self.inputs.filter { $0.hasPrefix("corpus/") }.count >= 30)
    }

    @Test(arguments: inputs)
    func replaysKeepTheInvariants(_ name: String) throws {
        let input = try [UInt8](Data(contentsOf: Self.fuzz.appendingPathComponent(name)))
        do {
            try JSONFuzzExercise.run(input)
        } catch let violation {
            Issue.record("\(name): \(violation)")
        }
    }
}
