import Foundation
import RedisClient

/// The command line of `sandbox-upstreams`, parsed.
struct SandboxArguments: Equatable {
    /// The key directory (`--keys`).
    var keysDirectory = ""
    /// The address to bind (`--host`).
    var host = "127.0.0.1"
    /// The ports (`--user-port`, `--feed-port`, `--payment-port`); 0 picks free ones.
    var userPort = 0
    var feedPort = 0
    var paymentPort = 0
    /// Whether to generate fresh keys into the directory (`--generate-keys`).
    var generateKeys = false
    /// Faults for all three upstreams (`--latency-ms`, `--error-rate`, `--reset-rate`,
    /// `--reset-after-processing-rate`).
    var faults = FaultSettings.none
    /// The fault generators' seed (`--fault-seed`).
    var faultSeed: UInt64?
    /// The most nonces each upstream remembers (`--replay-capacity`), or `nil` for the default.
    var replayCapacity: Int?
    /// The network threads the upstreams share (`--threads`), or `nil` for the default.
    var threadCount: Int?
    /// Whether the upstreams check signatures: `true` unless `--no-verify` (benchmarks only) is given.
    var verifiesSignatures = true
    /// The Redis of the payment ledger (`--redis`), or `nil` to keep it in memory.
    var redisURL: String?
    /// The file holding the Redis password (`--redis-password-file`).
    var redisPasswordFile: String?
    /// The signed requests per second each upstream's replay guard is sized for
    /// (`--replay-rate`), or `nil` for the default.
    var replayRate: Double?
    /// Whether `--help` was given.
    var showsHelp = false

    /// The help text.
    static let helpText = """
        USAGE: sandbox-upstreams --keys DIR [options]

        Runs the sandbox user, feed and payment upstreams on loopback and prints their base URLs,
        one line each: "user http://127.0.0.1:PORT", then feed, then payment. Every request must be
        signed (RFC 9421) with one of the module's keys from DIR. SIGTERM or SIGINT drains and
        exits 0. SIGHUP re-reads DIR: each upstream then trusts exactly the key files of its
        service found there (in-flight requests are unaffected, nonces already seen stay refused);
        if a file is invalid or a service has none left, the previous keys stay trusted and one
        line on standard error says why. Key rotation: add user-2.key beside user-1.key, SIGHUP,
        move the signers to user-2, delete user-1.key, SIGHUP.

        OPTIONS:
          --keys DIR            Directory of the keys (one line of base64 each, at least 32
                                bytes). Each upstream trusts every <service>-<suffix>.key file
                                of its service (user-1.key, user-2.key, feed-1.key, ...), the
                                key id being the file name without ".key"; at least one per
                                service. Required.
          --generate-keys       Generate fresh random keys and write them to DIR first
                                (mode 0600, replacing existing files).
          --host ADDRESS        Numeric address to listen on (default 127.0.0.1).
          --user-port N         Port of the user upstream (default 0: a free port).
          --feed-port N         Port of the feed upstream (default 0: a free port).
          --payment-port N      Port of the payment upstream (default 0: a free port).
          --latency-ms N        Add N ms before every answer of all three upstreams (0-30000).
          --error-rate R        Answer this fraction of requests with 503 (0-1).
          --reset-rate R        Reset this fraction of connections before processing (0-1).
          --reset-after-processing-rate R
                                Process this fraction of requests, then reset the connection
                                instead of answering (0-1): the effect stays, the answer is lost.
          --fault-seed N        Seed of the fault generators, to repeat a run's faults.
          --replay-rate N       Size each upstream's replay guard for N signed requests/s
                                (1-1000000, default 5000): it holds up to 2 x N x 91 s nonces
                                (each kept at most 91 s; about 240 bytes each when full) and
                                refuses new signatures with 503 beyond that. Not used with --redis.
          --replay-capacity N   Hold at most N nonces per upstream instead (1-100000000).
          --threads N           Network threads the upstreams share (1-64; default 2, or 1
                                when the process may run on one CPU only, as under taskset -c 0).
          --redis URL           Keep the payment ledger (wallets, charges, refunds, idempotency
                                records) in Redis, shared by every sandbox set using it:
                                redis://[user@]host[:port][/db] or unix:///path/redis.sock[?db=N].
                                Wallets are seeded only where absent. Default: in memory.
          --redis-password-file FILE
                                Read the Redis password (AUTH) from FILE; never put it in the URL.
          --no-verify           FOR BENCHMARKS ONLY: accept every request without checking its
                                signature (for a proxy that cannot sign, such as nginx). Prints a
                                warning. Off by default; never use it for anything else.
          -h, --help            Show this help.

        EXIT STATUS: 0 after a drain, 64 for a usage error, 1 when keys, ports or Redis fail.
        """

    /// Parses the arguments after the program name; `--name value` and `--name=value` both work.
    /// - Throws: ``SandboxUsageError`` naming the bad or missing argument.
    static func parse(_ arguments: [String]) throws(SandboxUsageError) -> SandboxArguments {
        var result = SandboxArguments()
        var keys: String?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() throws(SandboxUsageError) -> String {
                if let inlineValue { return inlineValue }
                guard index < arguments.count else { throw SandboxUsageError("\(name) needs a value") }
                index += 1
                return arguments[index - 1]
            }
            func flagWithoutValue() throws(SandboxUsageError) {
                guard inlineValue == nil else { throw SandboxUsageError("\(name) takes no value") }
            }
            switch name {
            case "-h", "--help":
                try flagWithoutValue()
                result.showsHelp = true
            case "--keys": keys = try value()
            case "--generate-keys":
                try flagWithoutValue()
                result.generateKeys = true
            case "--host": result.host = try value()
            case "--user-port": result.userPort = try port(name, value())
            case "--feed-port": result.feedPort = try port(name, value())
            case "--payment-port": result.paymentPort = try port(name, value())
            case "--latency-ms":
                let text = try value()
                guard let milliseconds = Int(text), (0...30_000).contains(milliseconds) else {
                    throw SandboxUsageError("--latency-ms must be an integer from 0 to 30000, got \"\(text)\"")
                }
                result.faults.latency = .milliseconds(milliseconds)
            case "--error-rate": result.faults.errorRate = try rate(name, value())
            case "--reset-rate": result.faults.resetRate = try rate(name, value())
            case "--reset-after-processing-rate": result.faults.resetAfterProcessingRate = try rate(name, value())
            case "--replay-capacity":
                let text = try value()
                guard let capacity = Int(text), (1...100_000_000).contains(capacity) else {
                    throw SandboxUsageError("--replay-capacity must be an integer from 1 to 100000000, got \"\(text)\"")
                }
                result.replayCapacity = capacity
            case "--replay-rate":
                let text = try value()
                guard let rate = Int(text), (1...1_000_000).contains(rate) else {
                    throw SandboxUsageError("--replay-rate must be an integer from 1 to 1000000, got \"\(text)\"")
                }
                result.replayRate = Double(rate)
            case "--threads":
                let text = try value()
                guard let count = Int(text), (1...64).contains(count) else {
                    throw SandboxUsageError("--threads must be an integer from 1 to 64, got \"\(text)\"")
                }
                result.threadCount = count
            case "--redis":
                let text = try value()
                _ = try redisEndpoint(text)
                result.redisURL = text
            case "--redis-password-file":
                let path = try value()
                guard !path.isEmpty else { throw SandboxUsageError("--redis-password-file needs a file name") }
                result.redisPasswordFile = path
            case "--no-verify":
                try flagWithoutValue()
                result.verifiesSignatures = false
            case "--fault-seed":
                let text = try value()
                guard let seed = UInt64(text) else {
                    throw SandboxUsageError("--fault-seed must be a non-negative integer, got \"\(text)\"")
                }
                result.faultSeed = seed
            default:
                throw SandboxUsageError(
                    argument.hasPrefix("-") ? "unknown option \(name)" : "unexpected argument \"\(argument)\"")
            }
        }
        if result.showsHelp { return result }
        if result.redisPasswordFile != nil && result.redisURL == nil {
            throw SandboxUsageError("--redis-password-file needs --redis URL")
        }
        if let url = result.redisURL, try redisEndpoint(url).username != nil, result.redisPasswordFile == nil {
            throw SandboxUsageError("--redis names a user; give its password with --redis-password-file FILE")
        }
        guard let keys, !keys.isEmpty else { throw SandboxUsageError("--keys DIR is required") }
        result.keysDirectory = keys
        return result
    }

    /// The Redis configuration of a `--redis` URL and the ACL user it names, if any. The
    /// message of an error never repeats the URL, which could hold a password.
    /// - Throws: ``SandboxUsageError`` saying what is wrong.
    static func redisEndpoint(_ url: String) throws(SandboxUsageError) -> (
        configuration: RedisConfiguration, username: String?
    ) {
        guard var components = URLComponents(string: url) else {
            throw SandboxUsageError("--redis must be a URL such as redis://127.0.0.1:6379/0")
        }
        guard components.password == nil else {
            throw SandboxUsageError("--redis must not hold a password; give it with --redis-password-file FILE")
        }
        let username = components.user.flatMap { $0.isEmpty ? nil : $0 }
        components.user = nil
        do {
            return (try RedisConfiguration(url: components.string ?? ""), username)
        } catch {
            throw SandboxUsageError("--redis: \((error as? RedisError)?.message ?? "the URL is not usable")")
        }
    }

    private static func port(_ name: String, _ text: String) throws(SandboxUsageError) -> Int {
        guard let port = Int(text), (0...65535).contains(port) else {
            throw SandboxUsageError("\(name) must be a port from 0 to 65535, got \"\(text)\"")
        }
        return port
    }

    private static func rate(_ name: String, _ text: String) throws(SandboxUsageError) -> Double {
        guard let rate = Double(text), rate.isFinite, (0...1).contains(rate) else {
            throw SandboxUsageError("\(name) must be a number from 0 to 1, got \"\(text)\"")
        }
        return rate
    }
}
