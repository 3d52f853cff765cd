import Dispatch
public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A program run as a child of the test process, started with `posix_spawn` (not Foundation's
/// `Process`, which can crash while it starts a child and installs a `SIGCHLD` handler).
///
/// The child gets standard input from `/dev/null` (or the given bytes), standard output and
/// error captured (each on a thread of its own, so a chatty child never blocks), merged or
/// discarded, and no other descriptor of the test process. A thread of its own waits for this
/// one child (never for any other); a child still running when the value is released is killed
/// with `SIGKILL` and reaped, so a failing test leaves no process behind.
///
/// ```swift
/// let child = try ChildProcess("/bin/sleep", arguments: ["30"])
/// child.signal(SIGTERM)
/// #expect(await child.waitForExit(timeout: .seconds(5)) == .signaled(SIGTERM))
/// let echo = try await ChildProcess.run("/bin/echo", arguments: ["hello"])  // at most 60 s
/// #expect(echo.standardOutput == "hello\n")
/// ```
public final class ChildProcess: Sendable {
    /// The path of the program that runs.
    public let executable: String
    /// The child's process ID.
    public let pid: Int32
    private let reaper: Reaper
    private let standardOutputCollector: Collector?
    private let standardErrorCollector: Collector?

    /// Starts `executable` with `arguments` and `environment`, in `workingDirectory` if given.
    ///
    /// - Parameters:
    ///   - executable: The program's path (no `PATH` search).
    ///   - arguments: The arguments after the program's name.
    ///   - environment: The child's whole environment; by default the test process's own (see
    ///     ``environment(overriding:removing:)`` to change some of it).
    ///   - workingDirectory: The directory the child starts in; by default the test process's.
    ///   - input: What the child reads on standard input.
    ///   - output: Where standard output and standard error go.
    /// - Throws: ``ChildProcessError``, naming the program and the system's reason (for example a
    ///   missing program or directory).
    public init(
        _ executable: String,
        arguments: [String] = [],
        environment: [String: String] = ProcessInfo.processInfo.environment,
        workingDirectory: String? = nil,
        input: Input = .none,
        output: Output = .separate
    ) throws {
        let launched = try Launch.start(
            executable, arguments: arguments, environment: environment, workingDirectory: workingDirectory,
            input: input, output: output)
        self.executable = executable
        pid = launched.pid
        standardOutputCollector = launched.standardOutput.map { Collector(reading: $0) }
        standardErrorCollector = launched.standardError.map { Collector(reading: $0) }
        if let (descriptor, bytes) = launched.standardInput {
            Self.startWriting(bytes, to: descriptor)
        }
        reaper = Reaper(pid: launched.pid)
        reaper.startReaping(afterOutputOf: [standardOutputCollector, standardErrorCollector].compactMap { $0 })
    }

    deinit {
        reaper.send(SIGKILL)
    }

    /// Everything the child wrote to standard output so far, as UTF-8 text (both streams with
    /// ``Output/merged``, nothing with ``Output/discarded``); readable while it runs and after.
    public var standardOutput: String { standardOutputCollector?.text ?? "" }

    /// Everything the child wrote to standard error so far, as UTF-8 text (only with
    /// ``Output/separate``).
    public var standardError: String { standardErrorCollector?.text ?? "" }

    /// How the child ended, or `nil` while it runs.
    ///
    /// Set once the child has been reaped and its captured output has been read to the end (or,
    /// when something else the child started keeps the output open, 2 s after it ended).
    public var termination: Termination? { reaper.termination }

    /// Sends `signal` (such as `SIGTERM`, `SIGINT` or `SIGKILL`) to the child; does nothing once it
    /// has been reaped, so the signal never reaches another process that got the same ID.
    public func signal(_ signal: Int32) {
        reaper.send(signal)
    }

    /// Waits, without blocking a thread, until the child has ended (see ``termination``), at most
    /// `timeout`.
    ///
    /// - Returns: How it ended, or `nil` if it still runs at the deadline or the waiting task is
    ///   cancelled (the child is left running: signal it, then wait again).
    public func waitForExit(timeout: Duration) async -> Termination? {
        if let termination = reaper.termination { return termination }
        // The timer and a cancellation wake the waiter early; either may come before it is added.
        let reaper = self.reaper
        let id = reaper.reserveWaiter()
        let timer = Task {
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            reaper.wake(id)
        }
        defer { timer.cancel() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                reaper.addWaiter(id) { continuation.resume() }
            }
        } onCancel: {
            reaper.wake(id)
        }
        return reaper.termination
    }

    /// Waits up to `timeout` for the child to end, like ``waitForExit(timeout:)``; a child still
    /// running then is killed with `SIGKILL` and waited for (at most 10 s more), so no test leaves
    /// it behind.
    ///
    /// - Returns: How it ended, or `nil` if it had to be killed.
    public func waitForExitOrKill(timeout: Duration) async -> Termination? {
        if let termination = await waitForExit(timeout: timeout) { return termination }
        signal(SIGKILL)
        _ = await waitForExit(timeout: .seconds(10))
        return nil
    }

    /// Blocks the calling thread until the child has ended (see ``termination``), at most
    /// `timeout`; for synchronous code (in `async` code use ``waitForExit(timeout:)``).
    ///
    /// - Returns: How it ended, or `nil` if it still runs at the deadline.
    public func waitUntilExit(timeout: Duration) -> Termination? {
        let ended = DispatchSemaphore(value: 0)
        let id = reaper.reserveWaiter()
        reaper.addWaiter(id) { ended.signal() }
        _ = ended.wait(timeout: .now() + .nanoseconds(Self.nanoseconds(timeout)))
        reaper.wake(id)
        return reaper.termination
    }

    /// `duration` in whole nanoseconds, from 0 up to about 292 years.
    private static func nanoseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        guard duration > .zero else { return 0 }
        guard seconds < Int64.max / 1_000_000_000 else { return Int.max }
        return Int(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
