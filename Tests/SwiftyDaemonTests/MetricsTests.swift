import Dispatch
import Testing

@testable import SwiftyDaemon

struct MetricsTests {
    @Test func rendersTheTextFormat() {
        let metrics = Metrics()
        metrics.requests.increment(["/v1/users/:id", "GET", "200"])
        metrics.requests.increment(["/v1/users/:id", "GET", "200"])
        metrics.requestDuration.observe(["/v1/users/:id"], 0.003)
        metrics.requestDuration.observe(["/v1/users/:id"], 20)
        metrics.upstreamErrors.increment(["UserModule", "timeout"])
        let text = metrics.render()
        #expect(text.contains("# TYPE swiftyd_http_requests_total counter\n"))
        #expect(text.contains(#"swiftyd_http_requests_total{route="/v1/users/:id",method="GET",status="200"} 2"#))
        #expect(text.contains("# TYPE swiftyd_http_request_duration_seconds histogram\n"))
        #expect(text.contains(#"swiftyd_http_request_duration_seconds_bucket{route="/v1/users/:id",le="0.0025"} 0"#))
        #expect(text.contains(#"swiftyd_http_request_duration_seconds_bucket{route="/v1/users/:id",le="0.005"} 1"#))
        #expect(text.contains(#"swiftyd_http_request_duration_seconds_bucket{route="/v1/users/:id",le="10"} 1"#))
        #expect(text.contains(#"swiftyd_http_request_duration_seconds_bucket{route="/v1/users/:id",le="+Inf"} 2"#))
        #expect(text.contains(#"swiftyd_http_request_duration_seconds_count{route="/v1/users/:id"} 2"#))
        #expect(text.contains(#"swiftyd_http_request_duration_seconds_sum{route="/v1/users/:id"} 20.003"#))
        #expect(text.contains(#"swiftyd_upstream_errors_total{module="UserModule",kind="timeout"} 1"#))
        // Every non-comment line is `name{labels} value`.
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            #expect(line.split(separator: " ").count == 2, "bad sample line: \(line)")
        }
    }

    @Test func countsFromManyThreadsAddUpExactly() {
        let metrics = Metrics()
        let routes = (0..<8).map { "/v1/route/\($0)" }
        // Four workers on the machine's cores at once, each through every series, so series are
        // created and found concurrently.
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for round in 0..<5_000 {
                let route = routes[round % routes.count]
                metrics.requests.increment(LabelValues(route, "GET", "200"))
                metrics.requestDuration.observe(LabelValues(route), 0.002)
            }
        }
        for route in routes {
            #expect(metrics.requests.value([route, "GET", "200"]) == 2_500)
            #expect(metrics.requestDuration.count([route]) == 2_500)
        }
        let text = metrics.render()
        #expect(text.contains(#"swiftyd_http_request_duration_seconds_bucket{route="/v1/route/0",le="0.001"} 0"#))
        #expect(text.contains(#"swiftyd_http_request_duration_seconds_bucket{route="/v1/route/0",le="0.0025"} 2500"#))
        #expect(text.contains(#"swiftyd_http_request_duration_seconds_bucket{route="/v1/route/0",le="+Inf"} 2500"#))
        #expect(text.contains(#"swiftyd_http_request_duration_seconds_sum{route="/v1/route/0"} 5"# + "\n"))
    }

    /// More series than the registry's index holds are all still counted and shown.
    @Test func seriesPastTheLockFreeIndexAreCounted() {
        let metrics = Metrics()
        let statuses = (0..<3_000).map { String(100 + $0 % 500) }
        for (number, status) in statuses.enumerated() {
            metrics.requests.increment(LabelValues("/r/\(number / 500)", "GET", status), by: 2)
            metrics.requests.increment(LabelValues("/r/\(number / 500)", "GET", status))
        }
        for (number, status) in statuses.enumerated() {
            #expect(metrics.requests.value(["/r/\(number / 500)", "GET", status]) == 3)
        }
        let text = metrics.render()
        let samples = text.split(separator: "\n").filter { $0.hasPrefix("swiftyd_http_requests_total{") }
        #expect(samples.count == 3_000)
        #expect(samples.allSatisfy { $0.hasSuffix(" 3") })
    }

    @Test func labelValuesAreEscaped() {
        #expect(PrometheusText.labels(["a"], ["x\"y\\z\nw"]) == #"{a="x\"y\\z\nw"}"#)
    }
}
