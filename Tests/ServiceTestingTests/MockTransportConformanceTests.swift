import ServiceTesting
import Testing

struct MockTransportConformanceTests {
    @Test(arguments: TransportConformance.Check.inProcessCases)
    func inProcessMockConforms(_ check: TransportConformance.Check) async throws {
        try await TransportConformance(transport: TransportConformance.inProcessTransport()).run(check)
    }
}
