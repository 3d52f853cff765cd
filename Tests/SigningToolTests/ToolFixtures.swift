import Foundation

/// Key files and requests for the tool tests.
final class ToolFixtures {
    let directory: URL
    let keyFile: String
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("swifty-sign-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        keyFile = directory.appendingPathComponent("module.key").path
        try Data((Data((0..<32).map { UInt8($0 * 7 % 256) }).base64EncodedString() + "\n").utf8)
            .write(to: URL(fileURLWithPath: keyFile))
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func file(_ name: String, _ content: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try Data(content.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static let post = Array(
        "POST /v1/payments?dry-run=1 HTTP/1.1\r\nHost: api.example.com\r\nContent-Type: application/json\r\nContent-Length: 32\r\n\r\n{\"amount\":1200,\"currency\":\"EUR\"}"
            .utf8)

    static let get = Array(
        "GET /v1/users/42%2Fx?fields=a%20b HTTP/1.1\nHost: API.example.com:443\nAccept: */*\n\n".utf8)

    /// RFC 9421's test request with the B.2.5 signature fields, as raw HTTP/1.1.
    static let rfc9421B25 = Array(
        ("POST /foo?param=Value&Pet=dog HTTP/1.1\r\nHost: example.com\r\nDate: Tue, 20 Apr 2021 02:07:55 GMT\r\n"
            + "Content-Type: application/json\r\n"
            + "Content-Digest: sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:\r\n"
            + "Content-Length: 18\r\n"
            + "Signature-Input: sig-b25=(\"date\" \"@authority\" \"content-type\");created=1618884473;keyid=\"test-shared-secret\"\r\n"
            + "Signature: sig-b25=:pxcQw6G3AjtMBQjwo8XzkZf/bws5LelbaMk5rGIGtE8=:\r\n\r\n{\"hello\": \"world\"}").utf8)
}
