public import Foundation

/// The saved inputs of one libFuzzer target in `Tools/fuzz`: the crashes it found
/// (`crashes/TARGET`) and its seed corpus (`corpus/TARGET`), for a test that replays them through
/// the target's exercise without the fuzzer.
///
/// ```swift
/// static let inputs = FuzzInputs(target: "JSON", testFile: #filePath)
///
/// @Test(arguments: inputs.names)
/// func replaysKeepTheInvariants(_ name: String) throws {
///     try JSONFuzzExercise.run(try Self.inputs.bytes(name))
/// }
/// ```
public struct FuzzInputs: Sendable {
    /// The target's name, as `Tools/fuzz/run` knows it.
    public let target: String
    /// The `Tools/fuzz` directory.
    public let directory: URL
    /// Every saved input, crashes first, by path relative to `Tools/fuzz`, sorted in each group.
    public let names: [String]

    /// Lists the saved inputs of `target`.
    /// - Parameters:
    ///   - target: The fuzz target.
    ///   - testFile: `#filePath` of a file in `Tests/<Target>/`, to find the repository from.
    public init(target: String, testFile: String) {
        self.target = target
        directory =
            URL(fileURLWithPath: testFile).deletingLastPathComponent()
            .appendingPathComponent("../../Tools/fuzz").standardizedFileURL
        var names: [String] = []
        for group in ["crashes/\(target)", "corpus/\(target)"] {
            let path = directory.appendingPathComponent(group).path
            let files = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            names += files.filter { !$0.hasPrefix(".") }.sorted().map { "\(group)/\($0)" }
        }
        self.names = names
    }

    /// The seed corpus's inputs.
    public var seeds: [String] { names.filter { $0.hasPrefix("corpus/") } }

    /// The bytes of the saved input `name`.
    /// - Throws: When the file cannot be read.
    public func bytes(_ name: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: directory.appendingPathComponent(name)))
    }
}
