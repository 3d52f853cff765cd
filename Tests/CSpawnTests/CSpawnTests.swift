import CSpawn
import Glibc
import Testing

/// Calls the CSpawn shims directly and checks what glibc does behind each of them.
///
/// Every child is a real process started with `posix_spawn`: the wait-status decoders read the
/// statuses of children that exited or were killed, and the file actions are judged by what the
/// child prints (its working directory, the descriptors it holds). Each child's output is read and
/// its exit awaited for at most ``timeLimit``, after which it is killed; every child is reaped.
struct CSpawnTests {
    /// How long a test waits for a child's output and exit before it kills the child.
    private static let timeLimit: Duration = .seconds(10)

    /// The most output a child may write before the test stops reading.
    private static let outputLimit = 1 << 20

    /// How a child ends: with an exit code, or killed by a signal.
    enum Ending: Equatable, Sendable {
        case exited(code: Int32)
        case signaled(signal: Int32)
    }

    /// Shell scripts and how the child that runs each ends.
    static let scriptEndings: [(String, Ending)] = [
        ("exit 0", .exited(code: 0)),
        ("exit 3", .exited(code: 3)),
        ("kill -TERM $$", .signaled(signal: SIGTERM)),
    ]

    /// What a child printed (standard output and error, in order) and its wait status.
    private struct Outcome {
        let output: String
        let status: Int32
    }

    /// A failed call, named, with the error number it gave.
    private struct CallFailure: Error, CustomStringConvertible {
        let call: String
        let errorNumber: Int32

        var description: String { "\(call) failed: \(String(cString: strerror(errorNumber))) (\(errorNumber))" }
    }

    // MARK: - Wait status

    /// A child that exits decodes as exited with its code and not as signaled; a child killed by a
    /// signal decodes as signaled with that signal and not as exited.
    @Test(arguments: scriptEndings)
    func waitStatusDecodes(script: String, expected: Ending) throws {
        let outcome = try Self.run(["/bin/sh", "-c", script])
        let exited = cspawn_exited(outcome.status) != 0
        let signaled = cspawn_signaled(outcome.status) != 0
        #expect(exited != signaled, "status \(outcome.status)")
        let decoded: Ending? =
            if exited {
                .exited(code: cspawn_exit_code(outcome.status))
            } else if signaled {
                .signaled(signal: cspawn_signal(outcome.status))
            } else {
                nil
            }
        #expect(decoded == expected)
        #expect(outcome.output.isEmpty)
    }

    // MARK: - Pipe

    /// Both ends of the pipe are closed on exec, and bytes written to one end come out of the other.
    @Test func pipeIsCloseOnExecAndCarriesBytes() throws {
        var ends: [Int32] = [-1, -1]
        guard cspawn_pipe_cloexec(&ends) == 0 else { throw CallFailure(call: "pipe2", errorNumber: errno) }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        defer { close(readEnd) }
        #expect(fcntl(readEnd, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fcntl(writeEnd, F_GETFD) & FD_CLOEXEC != 0)
        let message = Array("through the pipe\n".utf8)
        let written = message.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
        close(writeEnd)
        #expect(written == message.count)
        #expect(try Self.readToEnd(readEnd, before: ContinuousClock.now + Self.timeLimit) == message)
    }

    // MARK: - Working directory

    /// A child given `addchdir` starts in that directory.
    @Test func addchdirStartsChildInDirectory() throws {
        try Self.withTemporaryDirectory { directory in
            let outcome = try Self.run(["/bin/sh", "-c", "pwd"]) { actions in
                try Self.check("addchdir_np", cspawn_file_actions_addchdir(actions, directory))
            }
            // The child has no PWD in its environment, so `pwd` prints the physical path.
            #expect(outcome.output == directory + "\n")
            #expect(cspawn_exited(outcome.status) != 0 && cspawn_exit_code(outcome.status) == 0)
        }
    }

    /// `posix_spawn` itself fails with ENOENT when the directory given to `addchdir` does not exist.
    @Test func addchdirToMissingDirectoryFailsSpawn() throws {
        try Self.withTemporaryDirectory { directory in
            let failure = #expect(throws: CallFailure.self) {
                _ = try Self.run(["/bin/sh", "-c", "exit 0"]) { actions in
                    try Self.check("addchdir_np", cspawn_file_actions_addchdir(actions, directory + "/missing"))
                }
            }
            #expect(failure?.call == "posix_spawn")
            #expect(failure?.errorNumber == ENOENT)
        }
    }

    // MARK: - Closing descriptors

    /// With `addclosefrom(3)` the child holds descriptors 0, 1 and 2 only, though the test process
    /// holds a descriptor above them that is not closed on exec.
    @Test func addclosefromLeavesStandardDescriptorsOnly() throws {
        let (inherited, listing) = try Self.descriptorsOfChild(closingFrom: 3)
        #expect(listing == ["0", "1", "2"], "the test's open descriptor is \(inherited)")
    }

    /// Without `addclosefrom` the child inherits the test's descriptor that is not closed on exec
    /// (the case `addclosefromLeavesStandardDescriptorsOnly` must tell apart).
    @Test func withoutAddclosefromChildInheritsDescriptor() throws {
        let (inherited, listing) = try Self.descriptorsOfChild(closingFrom: nil)
        #expect(listing.contains(String(inherited)), "child holds \(listing)")
    }
}

// MARK: - Helpers

extension CSpawnTests {
    /// Opens a descriptor (above 2, not closed on exec) in the test process, starts a shell with
    /// `closingFrom` given to `addclosefrom` (or none), and returns that descriptor and the list of
    /// the shell's own descriptors.
    ///
    /// The list is the shell's, not that of the `ls` that prints it: `ls` is a child of the shell
    /// (the `exit` after it keeps the shell from executing `ls` in its place) and reads
    /// `/proc/<shell>/fd`, so the descriptor `ls` opens to read that directory is not in it.
    private static func descriptorsOfChild(closingFrom lowest: Int32?) throws -> (Int32, [String]) {
        let inherited = open("/dev/null", O_RDONLY)
        guard inherited >= 0 else { throw CallFailure(call: "open /dev/null", errorNumber: errno) }
        defer { close(inherited) }
        try #require(inherited > 2)
        try #require(fcntl(inherited, F_GETFD) & FD_CLOEXEC == 0)
        let outcome = try run(["/bin/sh", "-c", "ls /proc/$$/fd; exit 0"]) { actions in
            if let lowest {
                try check("addclosefrom_np", cspawn_file_actions_addclosefrom(actions, lowest))
            }
        }
        #expect(cspawn_exited(outcome.status) != 0 && cspawn_exit_code(outcome.status) == 0, "\(outcome.output)")
        return (inherited, outcome.output.split(separator: "\n").map(String.init))
    }

    /// Starts `arguments` (the first is the executable's path) with standard input from `/dev/null`
    /// and standard output and error into one pipe, after `configure` has added its file actions;
    /// returns what the child wrote and its wait status.
    ///
    /// - Throws: ``CallFailure`` when a call fails (`posix_spawn` among them) or the child does not
    ///   finish within ``timeLimit`` (it is killed and reaped then).
    private static func run(
        _ arguments: [String],
        configure: (UnsafeMutablePointer<posix_spawn_file_actions_t>) throws -> Void = { _ in }
    ) throws -> Outcome {
        var ends: [Int32] = [-1, -1]
        guard cspawn_pipe_cloexec(&ends) == 0 else { throw CallFailure(call: "pipe2", errorNumber: errno) }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        defer { close(readEnd) }
        let pid: pid_t
        do {
            // The child has its own copy once started; the parent's copy would hold off the end of output.
            defer { close(writeEnd) }
            let actions = UnsafeMutablePointer<posix_spawn_file_actions_t>.allocate(capacity: 1)
            posix_spawn_file_actions_init(actions)
            defer {
                posix_spawn_file_actions_destroy(actions)
                actions.deallocate()
            }
            try check("addopen", posix_spawn_file_actions_addopen(actions, 0, "/dev/null", O_RDONLY, 0))
            try check("adddup2", posix_spawn_file_actions_adddup2(actions, writeEnd, 1))
            try check("adddup2", posix_spawn_file_actions_adddup2(actions, writeEnd, 2))
            try configure(actions)
            pid = try spawn(arguments, actions: actions)
        }
        let deadline = ContinuousClock.now + timeLimit
        let output = Result { try readToEnd(readEnd, before: deadline) }
        let status = try reap(pid, before: deadline)
        let bytes = try output.get()
        return Outcome(output: String(decoding: bytes, as: UTF8.self), status: status)
    }

    /// Calls `posix_spawn` with an environment of PATH only, SIGTERM at its default action and no
    /// signal blocked (other tests in this process may ignore or block SIGTERM), and returns the
    /// child's ID.
    private static func spawn(
        _ arguments: [String],
        actions: UnsafePointer<posix_spawn_file_actions_t>
    ) throws -> pid_t {
        let attributes = UnsafeMutablePointer<posix_spawnattr_t>.allocate(capacity: 1)
        posix_spawnattr_init(attributes)
        defer {
            posix_spawnattr_destroy(attributes)
            attributes.deallocate()
        }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        var defaulted = sigset_t()
        sigemptyset(&defaulted)
        sigaddset(&defaulted, SIGTERM)
        try check("setsigmask", posix_spawnattr_setsigmask(attributes, &unblocked))
        try check("setsigdefault", posix_spawnattr_setsigdefault(attributes, &defaulted))
        let flags = Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        try check("setflags", posix_spawnattr_setflags(attributes, flags))
        let argv = arguments.map { strdup($0) } + [nil]
        let environment = [strdup("PATH=/usr/bin:/bin"), nil]
        defer {
            argv.forEach { free($0) }
            environment.forEach { free($0) }
        }
        var pid: pid_t = 0
        try check("posix_spawn", posix_spawn(&pid, arguments[0], actions, attributes, argv, environment))
        return pid
    }

    /// Reads `descriptor` to its end, polling so that the wait ends at `deadline`.
    private static func readToEnd(_ descriptor: Int32, before deadline: ContinuousClock.Instant) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now < deadline {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let polled = poll(&ready, 1, 100)
            if polled == 0 || (polled < 0 && errno == EINTR) { continue }
            guard polled > 0 else { throw CallFailure(call: "poll", errorNumber: errno) }
            let count = read(descriptor, &chunk, chunk.count)
            if count == 0 { return bytes }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw CallFailure(call: "read", errorNumber: errno) }
            bytes += chunk[..<count]
            guard bytes.count <= outputLimit else {
                throw CallFailure(call: "reading over \(outputLimit) bytes of the child's output", errorNumber: EFBIG)
            }
        }
        throw CallFailure(call: "reading the child's output to its end within \(timeLimit)", errorNumber: ETIMEDOUT)
    }

    /// Waits for `pid` without blocking until `deadline`, then kills it; reaps it either way and
    /// returns its wait status.
    private static func reap(_ pid: pid_t, before deadline: ContinuousClock.Instant) throws -> Int32 {
        var status: Int32 = 0
        while ContinuousClock.now < deadline {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { return status }
            if reaped < 0 && errno != EINTR { throw CallFailure(call: "waitpid", errorNumber: errno) }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        for _ in 0..<10 {
            if waitpid(pid, &status, 0) == pid || errno != EINTR { break }
        }
        throw CallFailure(call: "waiting for the child's exit within \(timeLimit) (killed it)", errorNumber: ETIMEDOUT)
    }

    /// Makes a directory of its own under the temporary directory, calls `body` with its path with
    /// symbolic links resolved, and removes it.
    private static func withTemporaryDirectory(_ body: (String) throws -> Void) throws {
        let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(base)/cspawn-tests-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw CallFailure(call: "mkdtemp", errorNumber: errno) }
        let path = String(cString: made)
        defer { rmdir(path) }
        guard let resolved = realpath(path, nil) else { throw CallFailure(call: "realpath", errorNumber: errno) }
        defer { free(resolved) }
        try body(String(cString: resolved))
    }

    /// Throws ``CallFailure`` for `call` unless `result` (an error number, as the spawn calls return) is 0.
    private static func check(_ call: String, _ result: Int32) throws {
        guard result == 0 else { throw CallFailure(call: call, errorNumber: result) }
    }
}
