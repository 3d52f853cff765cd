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

    @Test func labelValuesAreEscaped() {
        #expect(PrometheusText.labels(["a"], ["x\"y\\z\nw"]) == #"{a="x\"y\\z\nw"}"#)
    }
}
