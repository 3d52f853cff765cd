import HTTPServer
import Testing

@testable import SwiftyDaemon

/// `/readyz` says 503 while the app server holds as many connections as its global limit.
struct ReadinessTests {
    @Test func readyzIs503AtTheConnectionLimitOnly() async {
        let readiness = Readiness()
        readiness.set(.ready)
        let router = AdminAPI(readiness: readiness, metrics: Metrics()).makeRouter()
        let request = ServerRequest(method: "GET", target: "/readyz")
        #expect(await router.handle(request).status == 200)
        let saturated = SaturationFlag()
        readiness.watchSaturation { saturated.value }
        #expect(await router.handle(request).status == 200)
        saturated.value = true
        #expect(await router.handle(request).status == 503)
    }
}

/// A flag a test flips; read from the readiness check.
private final class SaturationFlag: @unchecked Sendable {
    // `@unchecked Sendable`: set and read by one test task, one step after the other.
    var value = false
}
