public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension ChildProcess {
    /// How a child run by ``run(_:arguments:environment:workingDirectory:input:output:timeout:)``
    /// ended, and what it printed.
    public struct Outcome: Sendable {
        /// How it ended, or `nil` if it still ran at the time limit (it was then killed and reaped).
        public var termination: Termination?
        /// Its standard output (with standard error when merged), as UTF-8 text.
        public var standardOutput: String
        /// Its standard error (when separate), as UTF-8 text.
        public var standardError: String
    }

    /// Runs `executable` to its end (at most `timeout`) without blocking a thread, and returns how
    /// it ended and what it printed.
    ///
    /// The parameters are those of ``init(_:arguments:environment:workingDirectory:input:output:)``;
    /// a child that still runs after `timeout` is killed, and its ``Outcome/termination`` is `nil`.
    /// - Throws: ``ChildProcessError`` when the program cannot be started.
    public static func run(
        _ executable: String,
        arguments: [String] = [],
        environment: [String: String] = ProcessInfo.processInfo.environment,
        workingDirectory: String? = nil,
        input: Input = .none,
        output: Output = .separate,
        timeout: Duration = .seconds(60)
    ) async throws -> Outcome {
        let child = try ChildProcess(
            executable, arguments: arguments, environment: environment, workingDirectory: workingDirectory,
            input: input, output: output)
        let termination = await child.waitForExitOrKill(timeout: timeout)
        return Outcome(
            termination: termination, standardOutput: child.standardOutput, standardError: child.standardError)
    }

    /// The test process's environment with the variables named in `removed` taken out, then
    /// `overrides` set.
    public static func environment(overriding overrides: [String: String], removing removed: [String] = [])
        -> [String: String]
    {
        var environment = ProcessInfo.processInfo.environment
        for name in removed { environment[name] = nil }
        environment.merge(overrides) { _, override in override }
        return environment
    }
}
