import CurlTransport
import Foundation
import HTTPTypes
import ServiceCore
import Synchronization
import URLSessionTransport

/// `swifty-bench transport`: drives a transport against an upstream, for `Tools/bench/transport/run.sh`.
///
/// - `load`: `--concurrency` tasks send `GET --url` in a loop for `--duration` seconds; prints the
///   throughput and latency percentiles.
/// - `memory`: sends `--requests` requests from `--concurrency` tasks in chunks of `--sample-every`
///   and prints the resident memory after each chunk (from `/proc/self/statm`).
///
/// Output is `key=value` lines, one figure per line, for scripts.
enum TransportBenchmark {
    static let usage = """
        usage: swifty-bench transport load   --transport curl|urlsession --url URL [--concurrency 64] [--duration 10]
               swifty-bench transport memory --transport curl|urlsession --url URL [--concurrency 64]
                                             [--requests 200000] [--sample-every 50000]
        Sends GET URL (a loopback upstream answering 200) and prints key=value figures.
        """

    private struct Options {
        var mode = ""
        var transport = "curl"
        var url: URL?
        var concurrency = 64
        var duration = 10
        var requests = 200_000
        var sampleEvery = 50_000
    }

    static func run(_ arguments: [String]) async -> Int32 {
        let options: Options
        switch parse(arguments) {
        case .success(let parsed): options = parsed
        case .failure(let message):
            if message.text.isEmpty {
                print(usage)
                return 0
            }
            FileHandle.standardError.write(Data("swifty-bench transport: \(message.text)\n\(usage)\n".utf8))
            return 64
        }
        guard let url = options.url else { return 64 }
        let transport: any Transport
        let stop: () async -> Void
        switch options.transport {
        case "curl":
            let curl = CurlTransport(configuration: .sized(forConcurrency: options.concurrency))
            transport = curl
            stop = { await curl.shutdown() }
        default:
            let session = URLSessionTransport(configuration: .init(maxConnectionsPerHost: options.concurrency))
            transport = session
            stop = { session.shutdown() }
        }
        print("transport=\(options.transport)")
        print("concurrency=\(options.concurrency)")
        if options.mode == "load" {
            await load(transport, url: url, options: options)
        } else {
            await memory(transport, url: url, options: options)
        }
        await stop()
        return 0
    }

    // MARK: Load

    private struct TaskFigures: Sendable {
        var ok = 0
        var failed = 0
        var latencies: [UInt32] = []
    }

    private static func load(_ transport: any Transport, url: URL, options: Options) async {
        let request = HTTPRequest(method: .get, url: url, timeout: .seconds(10))
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start + .seconds(options.duration)
        let figures = await withTaskGroup(of: TaskFigures.self) { group in
            for _ in 0..<options.concurrency {
                group.addTask {
                    var figures = TaskFigures()
                    figures.latencies.reserveCapacity(100_000)
                    while clock.now < deadline {
                        let sent = clock.now
                        do {
                            let response = try await transport.send(request)
                            if response.status == 200 { figures.ok += 1 } else { figures.failed += 1 }
                        } catch {
                            figures.failed += 1
                        }
                        let elapsed = (clock.now - sent).components
                        let micros = elapsed.seconds * 1_000_000 + elapsed.attoseconds / 1_000_000_000_000
                        figures.latencies.append(UInt32(clamping: micros))
                    }
                    return figures
                }
            }
            var total = TaskFigures()
            for await part in group {
                total.ok += part.ok
                total.failed += part.failed
                total.latencies += part.latencies
            }
            return total
        }
        let seconds =
            Double((clock.now - start).components.seconds)
            + Double((clock.now - start).components.attoseconds) / 1e18
        let sorted = figures.latencies.sorted()
        func percentile(_ p: Double) -> UInt32 {
            sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
        }
        print("requests=\(figures.ok)")
        print("errors=\(figures.failed)")
        print("seconds=\(String(format: "%.2f", seconds))")
        print("requests_per_second=\(String(format: "%.0f", Double(figures.ok) / seconds))")
        print("latency_p50_us=\(percentile(0.5))")
        print("latency_p99_us=\(percentile(0.99))")
    }

    // MARK: Memory

    /// Hands out request numbers to the tasks of one chunk.
    private final class Ticket: Sendable {
        private let counter = Atomic<Int>(0)

        func take() -> Int { counter.add(1, ordering: .relaxed).oldValue }
    }

    private static func memory(_ transport: any Transport, url: URL, options: Options) async {
        let request = HTTPRequest(method: .get, url: url, timeout: .seconds(10))
        let chunks = max(1, options.requests / options.sampleEvery)
        var samples: [Int] = []
        var failures = 0
        print("rss_start_kib=\(residentKiB())")
        for chunk in 1...chunks {
            let next = Ticket()
            failures += await withTaskGroup(of: Int.self) { group in
                for _ in 0..<options.concurrency {
                    group.addTask {
                        var failed = 0
                        while next.take() < options.sampleEvery {
                            do {
                                if try await transport.send(request).status != 200 { failed += 1 }
                            } catch {
                                failed += 1
                            }
                        }
                        return failed
                    }
                }
                return await group.reduce(0, +)
            }
            let rss = residentKiB()
            samples.append(rss)
            print("rss_after_\(chunk * options.sampleEvery)_kib=\(rss)")
        }
        let growth = Double(samples.last! - samples.first!) / Double(samples.first!) * 100
        print("errors=\(failures)")
        print("rss_growth_first_to_last_chunk_percent=\(String(format: "%.2f", growth))")
    }

    /// The resident set size from `/proc/self/statm` (its second field, in pages).
    private static func residentKiB() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
    }

    // MARK: Arguments

    private struct UsageError: Error {
        var text: String
    }

    private static func parse(_ arguments: [String]) -> Result<Options, UsageError> {
        var options = Options()
        guard let mode = arguments.first, ["load", "memory"].contains(mode) else {
            if arguments.first == "--help" || arguments.first == "-h" { return .failure(UsageError(text: "")) }
            return .failure(UsageError(text: "the first argument must be load or memory"))
        }
        options.mode = mode
        var index = 1
        while index < arguments.count {
            let name = arguments[index]
            if name == "--help" || name == "-h" { return .failure(UsageError(text: "")) }
            guard index + 1 < arguments.count else { return .failure(UsageError(text: "\(name) needs a value")) }
            let value = arguments[index + 1]
            switch name {
            case "--transport":
                guard ["curl", "urlsession"].contains(value) else {
                    return .failure(UsageError(text: "--transport takes curl or urlsession"))
                }
                options.transport = value
            case "--url":
                guard let url = URL(string: value), url.scheme == "http" || url.scheme == "https" else {
                    return .failure(UsageError(text: "--url needs an http(s) URL"))
                }
                options.url = url
            case "--concurrency", "--duration", "--requests", "--sample-every":
                guard let number = Int(value), number > 0 else {
                    return .failure(UsageError(text: "\(name) needs a positive number"))
                }
                switch name {
                case "--concurrency": options.concurrency = number
                case "--duration": options.duration = number
                case "--requests": options.requests = number
                default: options.sampleEvery = number
                }
            default:
                return .failure(UsageError(text: "unknown option \(name)"))
            }
            index += 2
        }
        guard options.url != nil else { return .failure(UsageError(text: "--url is required")) }
        return .success(options)
    }
}
