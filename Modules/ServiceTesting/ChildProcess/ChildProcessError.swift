#if canImport(Glibc)
    import Glibc
#endif

/// A program that ``ChildProcess`` could not start.
public struct ChildProcessError: Error, Sendable, CustomStringConvertible {
    /// The program's path.
    public var executable: String
    /// The directory it was to start in, if one was given.
    public var workingDirectory: String?
    /// The system's error number (`errno`): `ENOENT` for a missing program or directory, `EACCES`
    /// for one that may not be executed, `EMFILE` when no descriptor is left, ...
    public var errorNumber: Int32

    init(executable: String, workingDirectory: String?, errorNumber: Int32) {
        self.executable = executable
        self.workingDirectory = workingDirectory
        self.errorNumber = errorNumber
    }

    /// `cannot start <executable> [in <directory>]: <the system's reason>`.
    public var description: String {
        let place = workingDirectory.map { " in \($0)" } ?? ""
        return "cannot start \(executable)\(place): \(String(cString: strerror(errorNumber)))"
    }
}
