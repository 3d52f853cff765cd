import AppLifecycle
import Foundation
import RedisClient

#if canImport(Glibc)
    import Glibc
#endif

/// `sandbox-upstreams`: runs the three upstreams alone until SIGTERM or SIGINT; SIGHUP re-reads
/// the key directory (``SandboxKeyRing``) and, when every file in it is valid, makes each
/// upstream trust exactly its keys there, else keeps the keys it has and says why in one line.
///
/// The executable calls ``blockTerminationSignals()``, then
/// `exit(await SandboxCommand.run(Array(CommandLine.arguments.dropFirst())))`; `--help` lists
/// the options.
public enum SandboxCommand {
    /// Blocks SIGTERM, SIGINT and SIGHUP in the calling thread, so that every thread started
    /// after it inherits the block and the signals reach only the command's ``UnixSignals``
    /// (Dispatch signal sources). Call it first thing in `main`, before any other thread exists.
    public static func blockTerminationSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGHUP)
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Runs the command.
    /// - Parameter arguments: The arguments after the program name.
    /// - Returns: The exit status: 0 after a drain or `--help`, 64 for a usage error, 1 when the
    ///   keys or the Redis password cannot be read or written, an upstream cannot listen, or the
    ///   Redis cannot be reached.
    public static func run(_ arguments: [String]) async -> Int32 {
        let parsed: SandboxArguments
        do {
            parsed = try SandboxArguments.parse(arguments)
        } catch {
            writeError(
                "error: \(error.message)\nUSAGE: sandbox-upstreams --keys DIR [options]\n"
                    + "See 'sandbox-upstreams --help' for the options.\n")
            return 64
        }
        if parsed.showsHelp {
            writeOutput(SandboxArguments.helpText + "\n")
            return 0
        }
        let keys: SandboxKeys
        let ring: SandboxKeyRing
        do {
            if parsed.generateKeys {
                let generated = try SandboxKeys.generate()
                try generated.write(toDirectory: parsed.keysDirectory)
                ring = try SandboxKeyRing.load(fromDirectory: parsed.keysDirectory)
                keys = generated
            } else {
                ring = try SandboxKeyRing.load(fromDirectory: parsed.keysDirectory)
                keys = try ring.primary
            }
        } catch {
            writeError("error: \(error)\n")
            return 1
        }
        var configuration = SandboxUpstreams.Configuration(
            host: parsed.host, userPort: parsed.userPort, feedPort: parsed.feedPort, paymentPort: parsed.paymentPort)
        for service in SandboxService.allCases { configuration.faults[service] = parsed.faults }
        if let seed = parsed.faultSeed { configuration.faultSeed = seed }
        if let capacity = parsed.replayCapacity { configuration.replayCapacity = capacity }
        if let rate = parsed.replayRate { configuration.replayRequestsPerSecond = rate }
        if let threadCount = parsed.threadCount { configuration.threadCount = threadCount }
        if let url = parsed.redisURL {
            do {
                let (redis, username) = try SandboxArguments.redisEndpoint(url)
                configuration.redis = redis
                if let file = parsed.redisPasswordFile {
                    configuration.redis?.credentials = try RedisCredentials(passwordFile: file, username: username)
                }
            } catch let error as SandboxUsageError {
                writeError("error: \(error.message)\n")
                return 64
            } catch {
                writeError("error: \(error)\n")
                return 1
            }
        }
        if !parsed.verifiesSignatures {
            configuration.verifiesSignatures = false
            writeError(noVerifyWarning)
        }

        let signals = await UnixSignals([.terminate, .interrupt, .hangup])
        let sandbox: SandboxUpstreams
        do {
            sandbox = try await SandboxUpstreams.start(keys: keys, configuration: configuration)
        } catch {
            writeError("error: \(error)\n")
            return 1
        }
        do {
            try sandbox.trust(ring)
        } catch {
            await sandbox.shutdown(gracePeriod: .zero)
            writeError("error: \(error)\n")
            return 1
        }
        writeError("sandbox-upstreams: trusting \(trusted(ring))\n")
        let lines = SandboxService.allCases.map { "\($0) \(sandbox.baseURLString(for: $0))\n" }.joined()
        writeOutput(lines)
        var arrivals = signals.makeAsyncIterator()
        var signal = await arrivals.next()
        while signal == .hangup {
            reloadKeys(sandbox, from: parsed.keysDirectory)
            signal = await arrivals.next()
        }
        writeError("sandbox-upstreams: \(signal.map { "\($0)" } ?? "signal") received, draining\n")
        await sandbox.shutdown(gracePeriod: .seconds(5))
        return 0
    }

    /// Re-reads the key directory and makes each upstream trust its keys there; on any problem
    /// the upstreams keep the keys they have. Writes one line either way (key ids, never keys).
    static func reloadKeys(_ sandbox: SandboxUpstreams, from directory: String) {
        do {
            let ring = try SandboxKeyRing.load(fromDirectory: directory)
            try sandbox.trust(ring)
            writeError("sandbox-upstreams: SIGHUP: keys reloaded, trusting \(trusted(ring))\n")
        } catch {
            writeError("sandbox-upstreams: SIGHUP: keys not reloaded, the previous keys stay trusted: \(error)\n")
        }
    }

    /// The trusted key ids by upstream: `user: user-1, user-2; feed: feed-1; payment: payment-1`.
    static func trusted(_ ring: SandboxKeyRing) -> String {
        SandboxService.allCases.map { service in
            "\(service): " + ring[service].map(\.keyID).joined(separator: ", ")
        }.joined(separator: "; ")
    }

    /// What `--no-verify` prints on standard error before the upstreams start.
    static let noVerifyWarning = """
        warning: --no-verify: signatures are NOT checked; every request is accepted as if it were signed. \
        This is for benchmarks against a proxy that cannot sign (nginx) only; never use it otherwise.

        """

    private static func writeOutput(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    private static func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
