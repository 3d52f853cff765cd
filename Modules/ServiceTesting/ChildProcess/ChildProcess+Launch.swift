import CSpawn

#if canImport(Glibc)
    import Glibc
#endif

extension ChildProcess {
    /// A child just started with `posix_spawn`, and the parent's ends of its pipes.
    struct Launch {
        /// The child's process ID.
        var pid: Int32
        /// The pipe to its standard input and what to write there.
        var standardInput: (descriptor: Int32, bytes: [UInt8])?
        /// The pipe from its standard output (and standard error when merged).
        var standardOutput: Int32?
        /// The pipe from its standard error, when separate.
        var standardError: Int32?

        /// Starts `executable`; see ``ChildProcess/init(_:arguments:environment:workingDirectory:input:output:)``.
        ///
        /// The child's standard descriptors are set up by file actions, then every descriptor from 3
        /// up is closed, so the child inherits nothing else of the test process. Its signal mask is
        /// emptied and every signal handler reset to the default (the launching thread may be one of
        /// Dispatch's, which block signals).
        static func start(
            _ executable: String,
            arguments: [String],
            environment: [String: String],
            workingDirectory: String?,
            input: Input,
            output: Output
        ) throws -> Launch {
            var files = SpawnFiles(executable: executable, workingDirectory: workingDirectory)
            defer { files.closeChildEnds() }
            do {
                var launch = Launch(pid: 0)
                switch input {
                case .none:
                    try files.check(posix_spawn_file_actions_addopen(files.actions, 0, "/dev/null", O_RDONLY, 0))
                case .bytes(let bytes):
                    launch.standardInput = (try files.pipe(childEnd: 0, isRead: true), bytes)
                }
                switch output {
                case .separate:
                    launch.standardOutput = try files.pipe(childEnd: 1, isRead: false)
                    launch.standardError = try files.pipe(childEnd: 2, isRead: false)
                case .merged:
                    launch.standardOutput = try files.pipe(childEnd: 1, isRead: false)
                    try files.check(posix_spawn_file_actions_adddup2(files.actions, 1, 2))
                case .discarded:
                    try files.check(posix_spawn_file_actions_addopen(files.actions, 1, "/dev/null", O_WRONLY, 0))
                    try files.check(posix_spawn_file_actions_adddup2(files.actions, 1, 2))
                }
                if let workingDirectory {
                    try files.check(cspawn_file_actions_addchdir(files.actions, workingDirectory))
                }
                try files.check(cspawn_file_actions_addclosefrom(files.actions, 3))
                launch.pid = try files.spawn(arguments: arguments, environment: environment)
                return launch
            } catch {
                files.closeParentEnds()
                throw error
            }
        }
    }

    /// The file actions, attributes and pipe descriptors of one `posix_spawn` call.
    private struct SpawnFiles: ~Copyable {
        let executable: String
        let workingDirectory: String?
        let actions = UnsafeMutablePointer<posix_spawn_file_actions_t>.allocate(capacity: 1)
        let attributes = UnsafeMutablePointer<posix_spawnattr_t>.allocate(capacity: 1)
        private var childEnds: [Int32] = []
        private var parentEnds: [Int32] = []

        init(executable: String, workingDirectory: String?) {
            self.executable = executable
            self.workingDirectory = workingDirectory
            posix_spawn_file_actions_init(actions)
            posix_spawnattr_init(attributes)
        }

        deinit {
            posix_spawn_file_actions_destroy(actions)
            posix_spawnattr_destroy(attributes)
            actions.deallocate()
            attributes.deallocate()
        }

        /// Throws ``ChildProcessError`` unless `result` (an error number) is 0.
        func check(_ result: Int32) throws {
            guard result != 0 else { return }
            throw ChildProcessError(executable: executable, workingDirectory: workingDirectory, errorNumber: result)
        }

        /// Makes a close-on-exec pipe whose one end becomes the child's `childEnd` and returns the
        /// other end, which stays in the parent.
        mutating func pipe(childEnd: Int32, isRead: Bool) throws -> Int32 {
            var ends: [Int32] = [-1, -1]
            if cspawn_pipe_cloexec(&ends) != 0 { try check(errno) }
            // Keep both ends off 0-2 (should the test process run with one of those closed), so that
            // no file action overwrites one end with another.
            for index in ends.indices where ends[index] < 3 {
                let original = ends[index]
                ends[index] = fcntl(original, F_DUPFD_CLOEXEC, 3)
                close(original)
            }
            let (child, parent) = isRead ? (ends[0], ends[1]) : (ends[1], ends[0])
            childEnds.append(child)
            parentEnds.append(parent)
            if child < 0 || parent < 0 { try check(EMFILE) }
            try check(posix_spawn_file_actions_adddup2(actions, child, childEnd))
            return parent
        }

        /// Calls `posix_spawn` and returns the child's ID.
        func spawn(arguments: [String], environment: [String: String]) throws -> Int32 {
            var noSignals = sigset_t()
            sigemptyset(&noSignals)
            var allSignals = sigset_t()
            sigfillset(&allSignals)
            try check(posix_spawnattr_setsigmask(attributes, &noSignals))
            try check(posix_spawnattr_setsigdefault(attributes, &allSignals))
            try check(posix_spawnattr_setflags(attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)))
            let argv = ([executable] + arguments).map { strdup($0) } + [nil]
            let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer {
                argv.forEach { free($0) }
                envp.forEach { free($0) }
            }
            var pid: Int32 = 0
            try check(posix_spawn(&pid, executable, actions, attributes, argv, envp))
            return pid
        }

        /// Closes the child's ends of the pipes, which the child has its own copies of by now.
        mutating func closeChildEnds() {
            childEnds.forEach { close($0) }
            childEnds = []
        }

        /// Closes the parent's ends of the pipes (when the launch failed).
        mutating func closeParentEnds() {
            parentEnds.forEach { close($0) }
            parentEnds = []
        }
    }
}
