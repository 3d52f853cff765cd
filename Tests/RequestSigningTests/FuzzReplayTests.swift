import Foundation
import Testing

/// Replays the StructuredFields and SignatureVerification fuzz targets' inputs without the
/// fuzzer: every crash they saved (Tools/fuzz/crashes/TARGET) and their seed corpora
/// (Tools/fuzz/corpus/TARGET) go through the exercise and must keep its invariants.
struct FuzzReplayTests {
    /// The saved inputs of `target`, by file name relative to Tools/fuzz.
    static func inputs(_ target: String) -> [String] {
        var names: [String] = []
        for directory in ["crashes/\(target)", "corpus/\(target)"] {
            let files =
                (try? FileManager.default.contentsOfDirectory(atPath: fuzz.appendingPathComponent(directory).path))
                ?? []
            names += files.filter { !$0.hasPrefix(".") }.sorted().map { "\(directory)/\($0)" }
        }
        return names
    }

    static let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "../../Tools/fuzz"
    ).standardizedFileURL

    static func load(_ name: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: fuzz.appendingPathComponent(name)))
    }

    @Test func theSeedCorporaAreThere() {
        #expect(Self.inputs("StructuredFields").filter { $0.hasPrefix("corpus/") }.count >= 30)
        #expect(Self.inputs("SignatureVerification").filter { $0.hasPrefix("corpus/") }.count >= 10)
    }

    @Test(arguments: inputs("StructuredFields"))
    func structuredFieldsKeepTheInvariants(_ name: String) throws {
        do {
            try StructuredFieldsFuzzExercise.run(try Self.load(name))
        } catch let violation {
            Issue.record("\(name): \(violation)")
        }
    }

    @Test(arguments: inputs("SignatureVerification"))
    func signatureVerificationKeepsTheInvariants(_ name: String) async throws {
        do {
            try await SignatureVerificationFuzzExercise.run(try Self.load(name))
        } catch let violation {
            Issue.record("\(name): \(violation)")
        }
    }
}
