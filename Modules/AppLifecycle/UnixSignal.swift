#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A POSIX signal a process can receive, by number, named as in `kill -l`.
public struct UnixSignal: Hashable, Sendable, CustomStringConvertible {
    /// The signal's number, such as `SIGTERM`.
    public let rawValue: Int32

    /// Wraps a signal number.
    /// - Parameter rawValue: The signal's number.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// `SIGTERM`: a supervisor asks the process to stop.
    public static let terminate = UnixSignal(rawValue: SIGTERM)
    /// `SIGINT`: Ctrl-C at a terminal.
    public static let interrupt = UnixSignal(rawValue: SIGINT)
    /// `SIGHUP`: the terminal went away, or, by convention, a request to reload.
    public static let hangup = UnixSignal(rawValue: SIGHUP)
    /// `SIGQUIT`: Ctrl-\ at a terminal.
    public static let quit = UnixSignal(rawValue: SIGQUIT)
    /// `SIGUSR1`: meaning defined by the program.
    public static let user1 = UnixSignal(rawValue: SIGUSR1)
    /// `SIGUSR2`: meaning defined by the program.
    public static let user2 = UnixSignal(rawValue: SIGUSR2)

    /// The signal's name, such as `SIGTERM`, or `signal 34` for one without a name here.
    public var description: String {
        switch self {
        case .terminate: "SIGTERM"
        case .interrupt: "SIGINT"
        case .hangup: "SIGHUP"
        case .quit: "SIGQUIT"
        case .user1: "SIGUSR1"
        case .user2: "SIGUSR2"
        default: "signal \(rawValue)"
        }
    }
}
