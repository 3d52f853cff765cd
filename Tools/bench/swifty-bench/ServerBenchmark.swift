import AppLifecycle
import AppLogging
import Dispatch
import Foundation
import HTTPServer

/// `swifty-bench server`: serves a small JSON answer after an async hop, for wrk.
///
/// Options: `--port P` (default 8080), `--host H` (default 127.0.0.1), `--threads N` (default: cores),
/// `--hop actor|yield|none` (default actor), `--memory-limit BYTES` (per-connection memory).
/// Stops on SIGINT or SIGTERM.
enum ServerBenchmark {
    /// An actor the handler hops through, as a real handler hops to a service or a cache.
    actor Counter {
        private var count = 0
        func next() -> Int {
            count += 1
            return count
        }
    }

    static let usage = """
        usage: swifty-bench server [--port P] [--host H] [--threads N] [--hop actor|yield|none]
                                   [--memory-limit BYTES]
        Serves {"ok":true,...} (about 50 bytes of JSON) on every path after an async hop.
        """

    static func run(_ arguments: [String]) async -> Int32 {
        var configuration = HTTPServer.Configuration(port: 8080)
        var hop = "actor"
        var index = 0
        func value() -> String? {
            index += 1
            return index < arguments.count ? arguments[index] : nil
        }
        while index < arguments.count {
            switch arguments[index] {
            case "--port":
                guard let port = value().flatMap(Int.init) else { return fail("--port needs a number") }
                configuration.port = port
            case "--host":
                guard let host = value() else { return fail("--host needs an address") }
                configuration.host = host
            case "--threads":
                guard let threads = value().flatMap(Int.init) else { return fail("--threads needs a number") }
                configuration.threadCount = threads
            case "--memory-limit":
                guard let bytes = value().flatMap(Int.init) else { return fail("--memory-limit needs a byte count") }
                configuration.connectionMemoryLimit = bytes
            case "--hop":
                guard let mode = value(), ["actor", "yield", "none"].contains(mode) else {
                    return fail("--hop takes actor, yield or none")
                }
                hop = mode
            case "--help", "-h":
                print(usage)
                return 0
            default:
                return fail("unknown option \(arguments[index])")
            }
            index += 1
        }
        let counter = Counter()
        let body = Data(#"{"ok":true,"service":"swifty","answer":"benchmark"}"#.utf8)
        let server = HTTPServer(configuration: configuration) { [hop] _ in
            switch hop {
            case "actor": _ = await counter.next()
            case "yield": await Task.yield()
            default: break
            }
            return .json(200, data: body)
        }
        do {
            try server.start()
        } catch {
            FileHandle.standardError.write(Data("swifty-bench server: \(error)\n".utf8))
            return 1
        }
        print("listening on \(configuration.host) port \(server.port) (hop: \(hop))")
        await waitForTermination()
        await server.shutdown(gracePeriod: .seconds(2))
        return 0
    }

    private static func fail(_ message: String) -> Int32 {
        FileHandle.standardError.write(Data("swifty-bench server: \(message)\n\(usage)\n".utf8))
        return 64
    }

    /// Suspends until SIGINT or SIGTERM arrives.
    private static func waitForTermination() async {
        var signals = await UnixSignals([.terminate, .interrupt]).makeAsyncIterator()
        _ = await signals.next()
    }
}
