import CSpawn

extension ChildProcess {
    /// How a child ended.
    public enum Termination: Equatable, Sendable, CustomStringConvertible {
        /// It exited with this code (0-255; -1 if something else in the test process reaped it
        /// first, so that its status was lost).
        case exited(Int32)
        /// A signal (`SIGTERM`, `SIGKILL`, ...) ended it.
        case signaled(Int32)

        /// The status as a shell reports it: the exit code, or 128 plus the signal's number.
        public var status: Int32 {
            switch self {
            case .exited(let code): code
            case .signaled(let signal): 128 + signal
            }
        }

        /// `exited with N` or `ended by signal N`.
        public var description: String {
            switch self {
            case .exited(let code): "exited with \(code)"
            case .signaled(let signal): "ended by signal \(signal)"
            }
        }

        /// Decodes a status from `waitpid` (`nil`: lost).
        init(waitStatus: Int32?) {
            guard let waitStatus else {
                self = .exited(-1)
                return
            }
            if cspawn_signaled(waitStatus) != 0 {
                self = .signaled(cspawn_signal(waitStatus))
            } else if cspawn_exited(waitStatus) != 0 {
                self = .exited(cspawn_exit_code(waitStatus))
            } else {
                self = .exited(-1)
            }
        }
    }
}
