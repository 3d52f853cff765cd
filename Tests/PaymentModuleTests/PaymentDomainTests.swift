import Foundation
import PaymentModule
import ServiceCore
import ServiceTesting
import Testing

/// The domain setting per environment and the module's identity.
struct PaymentDomainTests {
    @Test
    func knownEnvironmentsHaveTheirURLs() throws {
        #expect(PaymentDomain.baseURL(for: .production) == "https://payments.api.example.com")
        #expect(PaymentDomain.baseURL(for: .staging) == "https://payments.staging.api.example.com")
        #expect(PaymentDomain.baseURL(for: .sandbox) == nil)
        #expect(try PaymentDomain(environment: .production).resolvedBaseURL() == "https://payments.api.example.com")
    }

    @Test
    func overrideWinsAndReachesTheClient() throws {
        let client = try PaymentClient(domain: .sandbox(baseURL: "http://127.0.0.1:40003"), transport: MockTransport())
        let request = try client.serviceClient.makeRequest(.charge(id: "ch_1"))
        #expect(request.url.absoluteString == "http://127.0.0.1:40003/v1/charges/ch_1")
    }

    @Test
    func sandboxWithoutOverrideFailsWhenTheClientIsMade() throws {
        let error = try #require(throws: ServiceError.self) {
            try PaymentClient(domain: .init(environment: .sandbox), transport: MockTransport())
        }
        #expect(error.code == .invalidConfiguration)
        #expect(error.module == "PaymentModule")
    }

    @Test(arguments: ["", "payments.example.com", "mailto:pay@example.com", "https://payments.example.com#x"])
    func badOverrideFailsWhenTheClientIsMade(_ url: String) throws {
        let error = try #require(throws: ServiceError.self) {
            try PaymentClient(domain: .init(environment: .staging, baseURLOverride: url), transport: MockTransport())
        }
        #expect(error.code == .invalidConfiguration)
    }

    @Test
    func identityIsConsistent() {
        #expect(PaymentModuleIdentity.name == "PaymentModule")
        #expect(PaymentService.moduleName == PaymentModuleIdentity.name)
        #expect(PaymentModuleIdentity.keyID == "payment-1")
        #expect(PaymentModuleIdentity.tag == "PaymentModule")
        #expect(
            PaymentModuleIdentity.defaultBaseURLs == [
                "staging": "https://payments.staging.api.example.com", "production": "https://payments.api.example.com",
            ]
        )
        #expect(PaymentClient.Module.self == PaymentModuleIdentity.self)
        #expect(PaymentModuleIdentity.defaultBaseURL(for: "production") == PaymentDomain.baseURL(for: .production))
    }
}
