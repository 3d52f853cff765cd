import Glibc
import Testing

@testable import HTTPServer

/// The client's address is kept as the connection's bytes and formatted only when read.
struct RemoteAddressTests {
    @Test(
        arguments: [
            ([127, 0, 0, 1], "127.0.0.1"),
            ([10, 1, 2, 254], "10.1.2.254"),
            ([0, 0, 0, 0], "0.0.0.0"),
        ] as [([UInt8], String)])
    func ipv4BytesFormatAsDottedQuads(_ bytes: [UInt8], _ expected: String) {
        let address = bytes.withUnsafeBytes { RemoteAddress(family: AF_INET, bytes: $0) }
        #expect(address.text == expected)
    }

    @Test(
        arguments: [
            ([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], "::1"),
            ([0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x12, 0x34], "2001:db8::1234"),
            ([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 127, 0, 0, 1], "::ffff:127.0.0.1"),
        ] as [([UInt8], String)])
    func ipv6BytesFormatInTheirShortestForm(_ bytes: [UInt8], _ expected: String) {
        let address = bytes.withUnsafeBytes { RemoteAddress(family: AF_INET6, bytes: $0) }
        #expect(address.text == expected)
    }

    @Test func anUnknownFamilyOrTooFewBytesIsEmpty() {
        let unix = [UInt8](repeating: 1, count: 16).withUnsafeBytes { RemoteAddress(family: AF_UNIX, bytes: $0) }
        let short = [UInt8](repeating: 1, count: 3).withUnsafeBytes { RemoteAddress(family: AF_INET, bytes: $0) }
        #expect(unix == .unknown)
        #expect(short == .unknown)
        #expect(RemoteAddress.unknown.text.isEmpty)
    }

    @Test func givenTextIsKeptAsItIs() {
        var request = ServerRequest(method: "GET", target: "/", remoteAddress: "192.0.2.7")
        #expect(request.remoteAddress == "192.0.2.7")
        request.remoteAddress = "fe80::1"
        #expect(request.remoteAddress == "fe80::1")
        request.remoteAddress = ""
        #expect(request.remote == .unknown)
        #expect(ServerRequest(method: "GET", target: "/").remoteAddress.isEmpty)
    }
}
