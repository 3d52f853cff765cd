import Foundation
import HTTPTypes
import ServiceCore

/// Measures building a request from a service case: URL, headers and a ~200-byte JSON body.
enum CoreBenchmark {
    struct Charge: Encodable, Sendable {
        var payer = "alice"
        var payee = "bob"
        var amountMinor: Int64 = 12_345
        var currency = "EUR"
        var memo = "Dinner at the corner place, split three ways, thanks for organising it!"
        var reference = "inv-2026-11-30-000042"
        var tags = ["food", "friends"]
    }

    /// The case (URL, headers, ~200-byte JSON body), and a heavier one that also
    /// percent-encodes the path and adds a query with an array.
    enum PaymentsLike: Service {
        case charge(user: String, Charge, key: String)
        case chargeWithQuery(user: String, Charge, key: String)

        var path: RequestPath {
            switch self {
            case .charge(let user, _, _), .chargeWithQuery(let user, _, _): "/v1/users/\(user)/charges"
            }
        }
        var method: HTTPMethod { .post }
        var task: RequestTask {
            switch self {
            case .charge(_, let body, _): .json(body)
            case .chargeWithQuery(_, let body, _):
                .queryAndBody(["expand": ["payer", "payee"], "dry_run": false], body: .json(body))
            }
        }
        var headers: HTTPHeaders {
            switch self {
            case .charge(_, _, let key), .chargeWithQuery(_, _, let key): ["Idempotency-Key": key]
            }
        }
    }

    struct NoTransport: Transport {
        func send(_ request: HTTPRequest) async throws -> HTTPResponse { HTTPResponse(status: 204) }
    }

    static func run(arguments: [String]) {
        let iterations = Int(arguments.first ?? "") ?? 200_000
        let client = try! ServiceClient<PaymentsLike>(
            baseURL: "https://payments.example.com/api/",
            transport: NoTransport()
        )
        let key = "9f1c2b7e-2f1d-4c55-9a7e-0b6f3f1e2d4c"
        let only = arguments.dropFirst().first
        if only == nil || only == "charge" {
            measure(client, .charge(user: "alice", Charge(), key: key), iterations: iterations)
        }
        if only == nil || only == "chargeWithQuery" {
            measure(client, .chargeWithQuery(user: "alice smith", Charge(), key: key), iterations: iterations)
        }
    }

    static func measure(_ client: ServiceClient<PaymentsLike>, _ service: PaymentsLike, iterations: Int) {
        let rounds = 7
        let sample = try! client.makeRequest(service)
        print("\(service.operationName): \(sample.method) \(sample.url.absoluteString)")
        print("  headers \(sample.headers.map(\.name)), body \(sample.body?.count ?? 0) bytes")
        // Thread CPU time, not wall time: the figure holds when other processes share the cores.
        var medians: [Double] = []
        var wallMedians: [Double] = []
        for _ in 0..<rounds {
            let clock = ContinuousClock()
            let wallStart = clock.now
            let cpuStart = ThreadCPUClock().now()
            var sink = 0
            for _ in 0..<iterations {
                sink &+= (try? client.makeRequest(service))?.body?.count ?? 0
            }
            let cpu = ThreadCPUClock().now() - cpuStart
            let wall = clock.now - wallStart
            precondition(sink > 0)
            medians.append(cpu / Double(iterations))
            let wallSeconds = Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18
            wallMedians.append(wallSeconds / Double(iterations) * 1e9)
        }
        medians.sort()
        wallMedians.sort()
        let median = medians[rounds / 2]
        print(
            String(
                format:
                    "  build request: median %.0f ns/op thread CPU over %d rounds of %d (min %.0f, max %.0f); wall %.0f",
                median, rounds, iterations, medians.first!, medians.last!, wallMedians[rounds / 2]
            )
        )
    }
}
