import Foundation
import ServiceTesting
import Testing

/// Replays the StructuredFields and SignatureVerification fuzz targets' inputs without the
/// fuzzer: every crash they saved (Tools/fuzz/crashes/TARGET) and their seed corpora
/// (Tools/fuzz/corpus/TARGET) go through the exercise and must keep its invariants.
struct FuzzReplayTests {
    static let structuredFields = FuzzInputs(target: "StructuredFields", testFile: #filePath)
    static let signatureVerification = FuzzInputs(target: "SignatureVerification", testFile: #filePath)

    @Test func theSeedCorporaAreThere() {
        #expect(Self.structuredFields.seeds.count >= 30)
        #expect(Self.signatureVerification.seeds.count >= 10)
    }

    @Test(arguments: structuredFields.names)
    func structuredFieldsKeepTheInvariants(_ name: String) throws {
        do {
            try StructuredFieldsFuzzExercise.run(try Self.structuredFields.bytes(name))
        } catch {
            Issue.record("\(name): \(error)")
        }
    }

    @Test(arguments: signatureVerification.names)
    func signatureVerificationKeepsTheInvariants(_ name: String) async throws {
        do {
            try await SignatureVerificationFuzzExercise.run(try Self.signatureVerification.bytes(name))
        } catch {
            Issue.record("\(name): \(error)")
        }
    }
}
