import Foundation
import Testing

/// Replays the fuzz target's inputs without the fuzzer: every crash it saved
/// (Tools/fuzz/crashes/HTTPServer) and its seed corpus go through ``FuzzExercise`` and must
/// keep the edge's invariants.
@Suite(.serialized)
struct FuzzReplayTests {
    /// The saved inputs, by file name relative to Tools/fuzz.
    static let inputs: [String] = {
        let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../Tools/fuzz"
        ).standardizedFileURL
        var names: [String] = []
        for directory in ["crashes/HTTPServer", "corpus/HTTPServer"] {
            let files =
                (try? FileManager.default.contentsOfDirectory(atPath: fuzz.appendingPathComponent(directory).path))
                ?? []
            names += files.filter { !$0.hasPrefix(".") }.sorted().map { "\(directory)/\($0)" }
        }
        return names
    }()

    static func load(_ name: String) throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../Tools/fuzz/\(name)")
        return try [UInt8](Data(contentsOf: url))
    }

    @Test func theSeedCorpusIsThere() {
        #expect(Self.inputs.filter { $0.hasPrefix("corpus/") }.count >= 30)
    }

    @Test(arguments: inputs)
    func replaysKeepTheInvariants(_ name: String) throws {
        let input = try Self.load(name)
        do {
            try FuzzExercise.run(input)
        } catch {
            Issue.record("\(name): \(error)")
        }
    }
}
