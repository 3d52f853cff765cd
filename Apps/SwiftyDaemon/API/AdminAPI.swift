import Foundation
import HTTPServer
import HTTPTypes
import ServiceCore

/// The admin endpoints: `/livez` (the process answers), `/readyz` (503 while starting,
/// draining, or while the app server is at its global connection limit), `/metrics` (Prometheus text format 0.0.4),
/// `/openapi.json` (the app API's OpenAPI 3.1 document).
struct AdminAPI {
    let readiness: Readiness
    let metrics: Metrics

    func makeRouter() -> Router {
        var router = Router()
        router.add("GET", "/livez") { _, _ in .text("ok\n") }
        let readiness = self.readiness
        router.add("GET", "/readyz") { _, _ in
            var response: ServerResponse =
                switch readiness.state {
                case .ready where readiness.isSaturated: .text(503, "at the connection limit\n")
                case .ready: .text("ready\n")
                case .starting: .text(503, "starting\n")
                case .draining: .text(503, "draining\n")
                }
            // Every 503 the daemon sends says when to ask again.
            if response.status == 503 { response.headers.add(name: "Retry-After", value: "1") }
            return response
        }
        let metrics = self.metrics
        router.add("GET", "/metrics") { _, _ in
            var response = ServerResponse.text(metrics.render())
            response.headers["Content-Type"] = "text/plain; version=0.0.4; charset=utf-8"
            return response
        }
        router.add("GET", "/openapi.json") { _, _ in
            ServerResponse(
                status: 200, headers: ["Content-Type": "application/json"], body: Data(PackageResources.openapi_json))
        }
        return router
    }
}
