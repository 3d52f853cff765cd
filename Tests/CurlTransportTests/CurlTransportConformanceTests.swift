import CurlTransport
import ServiceTesting
import Testing

struct CurlTransportConformanceTests {
    @Test(arguments: TransportConformance.Check.allCases)
    func conforms(_ check: TransportConformance.Check) async throws {
        let transport = CurlTransport()
        do {
            try await TransportConformance(transport: transport).run(check)
        } catch {
            await transport.shutdown()
            throw error
        }
        await transport.shutdown()
    }
}
