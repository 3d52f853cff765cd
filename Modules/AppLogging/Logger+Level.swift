extension Logger {
    /// The severity of a log record, from least to most severe.
    public enum Level: String, Sendable, CaseIterable, Comparable, Codable {
        /// Very detailed tracing.
        case trace
        /// Information useful while debugging.
        case debug
        /// Normal operation.
        case info
        /// Normal but significant events.
        case notice
        /// Something unexpected that the program handled.
        case warning
        /// A failed operation.
        case error
        /// A failure that needs attention now.
        case critical

        private var rank: Int {
            switch self {
            case .trace: 0
            case .debug: 1
            case .info: 2
            case .notice: 3
            case .warning: 4
            case .error: 5
            case .critical: 6
            }
        }

        /// Orders levels by severity.
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rank < rhs.rank }
    }
}
