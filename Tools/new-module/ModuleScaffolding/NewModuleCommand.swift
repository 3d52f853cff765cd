import Foundation

/// The whole `new-module` command as a function: arguments in, exit status and output out.
public enum NewModuleCommand {
    /// What a run printed and how it ended.
    public struct Outcome: Sendable, Equatable {
        /// The process exit status.
        public var exitCode: Int32
        /// Text for standard output.
        public var output: String
        /// Text for standard error.
        public var errorOutput: String
    }

    /// Runs the command.
    /// - Parameters:
    ///   - arguments: The arguments without the program name.
    ///   - currentDirectory: The directory `--repo` defaults to and relative paths start from.
    public static func run(_ arguments: [String], currentDirectory: String) -> Outcome {
        do {
            switch try CommandLineOptions.parse(arguments) {
            case .help:
                return Outcome(exitCode: 0, output: CommandLineOptions.usage + "\n", errorOutput: "")
            case .create(let options):
                return Outcome(
                    exitCode: 0, output: try create(options, currentDirectory: currentDirectory), errorOutput: "")
            }
        } catch {
            return Outcome(exitCode: error.exitCode, output: "", errorOutput: error.description + "\n")
        }
    }

    private static func create(_ options: CommandLineOptions, currentDirectory: String) throws(ScaffoldingError)
        -> String
    {
        let spec = try ModuleSpec(
            name: options.name,
            baseURL: options.baseURL,
            stagingBaseURL: options.stagingBaseURL,
            keyID: options.keyID
        )
        let base = URL(fileURLWithPath: currentDirectory, isDirectory: true)
        let root = options.repository.map { URL(fileURLWithPath: $0, isDirectory: true, relativeTo: base) } ?? base
        let snapshot = try RepositorySnapshot.read(root: root.standardizedFileURL, for: spec)
        let plan = try ScaffoldPlan.make(for: spec, in: snapshot)
        if options.dryRun {
            return report(plan, spec: spec, verb: "would create", editVerb: "would edit")
        }
        try ScaffoldWriter.apply(plan, at: root.standardizedFileURL)
        return report(plan, spec: spec, verb: "created", editVerb: "edited")
            + """

            Next:
              swift build
              swift test --filter \(spec.testTargetName)
              Tools/dev/swifty-dev run
              curl -H 'Authorization: Bearer sandbox-alice' http://127.0.0.1:8080\(spec.exampleRoute.replacingOccurrences(of: ":id", with: "i1"))
            then replace the example case and route with the real API (docs/adding-a-module.md).

            """
    }

    private static func report(_ plan: ScaffoldPlan, spec: ModuleSpec, verb: String, editVerb: String) -> String {
        var lines = ["\(spec.moduleName) (signing tag \(spec.tag), default key id \(spec.keyID)):"]
        lines += plan.newFiles.map { "  \(verb) \($0.path)" }
        lines += plan.edits.map { "  \(editVerb) \($0.path)" }
        return lines.joined(separator: "\n") + "\n"
    }
}
