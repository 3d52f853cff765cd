import ServiceTesting
import Testing
import URLSessionTransport

struct URLSessionTransportConformanceTests {
    @Test(arguments: TransportConformance.Check.allCases)
    func conforms(_ check: TransportConformance.Check) async throws {
        let transport = URLSessionTransport()
        defer { transport.shutdown() }
        try await TransportConformance(transport: transport).run(check)
    }
}
