import HTTPTypes
import Testing

@testable import SwiftyDaemon

/// The client's address is taken from `Forwarded` / `X-Forwarded-For` only for a connection from
/// a trusted proxy, and only up to the first address that is not one.
struct ClientAddressTests {
    static let trusted: Set<String> = ["10.0.0.1", "10.0.0.2"]

    @Test func anUntrustedPeerIsTheClientWhateverItSends() {
        let headers: HTTPHeaders = ["X-Forwarded-For": "1.2.3.4", "Forwarded": "for=5.6.7.8"]
        #expect(ClientAddress.resolve(peer: "192.0.2.9", headers: headers, trusted: Self.trusted) == "192.0.2.9")
    }

    @Test func theRightmostUntrustedAddressOfXForwardedForIsTheClient() {
        let headers: HTTPHeaders = ["X-Forwarded-For": "6.6.6.6, 198.51.100.7, 10.0.0.2"]
        #expect(ClientAddress.resolve(peer: "10.0.0.1", headers: headers, trusted: Self.trusted) == "198.51.100.7")
    }

    @Test func forwardedIsPreferredAndItsNodesUnwrapped() {
        let headers: HTTPHeaders = [
            "Forwarded": #"for="[2001:db8::7]:443";proto=https, for=10.0.0.2"#, "X-Forwarded-For": "1.1.1.1",
        ]
        #expect(ClientAddress.resolve(peer: "10.0.0.1", headers: headers, trusted: Self.trusted) == "2001:db8::7")
    }

    @Test func garbageOrNoChainLeavesThePeer() {
        #expect(ClientAddress.resolve(peer: "10.0.0.1", headers: [:], trusted: Self.trusted) == "10.0.0.1")
        let headers: HTTPHeaders = ["X-Forwarded-For": "not-an-address"]
        #expect(ClientAddress.resolve(peer: "10.0.0.1", headers: headers, trusted: Self.trusted) == "10.0.0.1")
    }

    @Test func trustedProxiesAreAConfigurationFieldChecked() throws {
        let configuration = try DaemonConfiguration.load(
            arguments: DaemonArguments(), environment: ["SWIFTY_TRUSTED_PROXIES": "10.0.0.1, ::1"])
        #expect(configuration.trustedProxies == ["10.0.0.1", "::1"])
        var bad = DaemonConfiguration()
        bad.trustedProxies = ["lb.example"]
        #expect(ConfigurationCheck.problems(in: bad, environment: [:]).contains { $0.contains("trustedProxies") })
    }
}
