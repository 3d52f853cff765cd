/// The command line of `swiftyd`, parsed.
public struct DaemonArguments: Sendable, Equatable {
    /// A command line that cannot be used; the daemon prints it with the usage and exits 64.
    public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
        /// What was wrong.
        public var message: String
        /// The message.
        public var description: String { message }
    }

    /// `--config FILE`.
    public var configFile: String?
    /// `--host ADDRESS`.
    public var host: String?
    /// `--port N`.
    public var port: Int?
    /// `--admin-port N`.
    public var adminPort: Int?
    /// `--request-deadline-ms N`.
    public var requestDeadlineMilliseconds: Int?
    /// `--max-in-flight N`.
    public var maxInFlight: Int?
    /// Each `--module Name.field=value`, in order, as given (checked when the configuration is
    /// loaded).
    public var moduleSettings: [String] = []
    /// `--check-config`: validate and exit.
    public var checkConfig = false
    /// `--help`.
    public var help = false
    /// `--version`.
    public var version = false

    /// The usage text.
    public static let usage = """
        usage: swiftyd [--config FILE] [--host ADDRESS] [--port N] [--admin-port N]
                       [--request-deadline-ms N] [--max-in-flight N] [--module Name.field=value ...]
                       [--check-config]

        With no arguments, runs the sandbox: the user, feed and payment upstreams in process on
        loopback with fresh keys, the app API on 127.0.0.1:8080 and the admin endpoints
        (/livez, /readyz, /metrics) on 127.0.0.1:9090.

        options:
          --config FILE     read settings from a JSON file (see docs/configuration.md)
          --host ADDRESS    the app API's address (default 127.0.0.1)
          --port N          the app API's port (default 8080; 0 picks a free one)
          --admin-port N    the admin endpoints' port (default 9090; 0 picks a free one)
          --request-deadline-ms N
                            one app request's deadline over all its upstream calls (default 10000)
          --max-in-flight N app requests handled at once; more get 503 at once (default 512)
          --module Name.field=value
                            a module's resilience field, e.g. PaymentModule.retryAttempts=2
                            (see docs/resilience.md); repeatable
          --check-config    validate the settings and key files, print every problem, exit 0 or 78
          --help            show this text
          --version         print the version

        environment (between the file and the flags): SWIFTY_CONFIG, SWIFTY_MODE, SWIFTY_HOST,
        SWIFTY_PORT, SWIFTY_ADMIN_PORT, SWIFTY_LOG_LEVEL, SWIFTY_LOG_FORMAT, SWIFTY_DRAIN_SECONDS,
        SWIFTY_REQUEST_DEADLINE_MS, SWIFTY_MAX_IN_FLIGHT, the shared state's SWIFTY_STATE_STORE
        (memory or redis), SWIFTY_REDIS_URL, SWIFTY_REDIS_USERNAME, SWIFTY_REDIS_PASSWORD_FILE,
        SWIFTY_REDIS_COMMAND_TIMEOUT_MS, SWIFTY_REDIS_KEY_PREFIX, and per module SWIFTY_<NAME>_BASE_URL,
        _KEY_ID, _KEY_FILE, _TRANSPORT, _TIMEOUT_MS and the resilience fields (_RETRY_ATTEMPTS,
        _BREAKER_OPEN_MS, ...) (NAME is the module's name without "Module", upper-cased: USER,
        FEED, PAYMENT).
        """

    /// Creates empty arguments.
    public init() {}

    /// Parses arguments (without the program name).
    /// - Throws: ``UsageError`` for an unknown flag, a missing or malformed value.
    public init(parsing arguments: [String]) throws(UsageError) {
        var remaining = arguments[...]
        func value(for flag: String) throws(UsageError) -> String {
            guard let next = remaining.popFirst(), !next.hasPrefix("--") else {
                throw UsageError(message: "\(flag) needs a value")
            }
            return next
        }
        func portNumber(for flag: String) throws(UsageError) -> Int {
            let text = try value(for: flag)
            guard let number = Int(text), (0...65535).contains(number) else {
                throw UsageError(message: "\(flag) takes a port number from 0 to 65535, not \"\(text)\"")
            }
            return number
        }
        func positive(for flag: String) throws(UsageError) -> Int {
            let text = try value(for: flag)
            guard let number = Int(text), number > 0 else {
                throw UsageError(message: "\(flag) takes a positive whole number, not \"\(text)\"")
            }
            return number
        }
        while let argument = remaining.popFirst() {
            var flag = argument
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                flag = String(argument[..<equals])
                remaining.insert(String(argument[argument.index(after: equals)...]), at: remaining.startIndex)
            }
            switch flag {
            case "--config": configFile = try value(for: flag)
            case "--host": host = try value(for: flag)
            case "--port": port = try portNumber(for: flag)
            case "--admin-port": adminPort = try portNumber(for: flag)
            case "--request-deadline-ms": requestDeadlineMilliseconds = try positive(for: flag)
            case "--max-in-flight": maxInFlight = try positive(for: flag)
            case "--module":
                let setting = try value(for: flag)
                guard let dot = setting.firstIndex(of: "."), let equals = setting.firstIndex(of: "="), dot < equals
                else { throw UsageError(message: "--module takes Name.field=value, not \"\(setting)\"") }
                moduleSettings.append(setting)
            case "--check-config": checkConfig = true
            case "--help", "-h": help = true
            case "--version": version = true
            default: throw UsageError(message: "unknown argument \"\(argument)\"")
            }
        }
    }
}
