import Foundation
import HTTPTypes
import RequestSigning
import ServiceCore
import Testing

/// Keys, requests and clocks shared by the signer, verifier and middleware tests.
enum Fixtures {
    static let secret: [UInt8] = (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
    static let created = Date(timeIntervalSince1970: 1_700_000_000)

    static func key(
        id: String = "user-2026",
        tag: String? = "UserModule",
        algorithm: SigningAlgorithm = .hmacSHA256,
        secret: [UInt8] = Fixtures.secret
    ) throws -> SigningKey {
        try SigningKey(id: id, algorithm: algorithm, tag: tag, secret: secret)
    }

    static func getRequest() -> HTTPRequest {
        HTTPRequest(
            method: .get, url: URL(string: "https://api.example.com/v1/users/42%2Fx?fields=name%20full&b=2")!,
            headers: ["Accept": "application/json"])
    }

    static func postRequest() -> HTTPRequest {
        HTTPRequest(
            method: .post, url: URL(string: "https://api.example.com:443/v1/payments?dry-run=1")!,
            headers: ["Content-Type": "application/json"], body: Data("{\"amount\":1200,\"currency\":\"EUR\"}".utf8))
    }

    static func signer(
        key: SigningKey? = nil,
        configuration: RequestSigner.Configuration = RequestSigner.Configuration(),
        at time: Date = Fixtures.created
    ) throws -> RequestSigner {
        try RequestSigner(key: key ?? Fixtures.key(), configuration: configuration, clock: { time })
    }

    static func verifier(
        keys: [SigningKey]? = nil,
        configuration: SignatureVerifier.Configuration = SignatureVerifier.Configuration(),
        replayGuard: any ReplayGuard = InMemoryReplayGuard(),
        at time: Date = Fixtures.created.addingTimeInterval(2)
    ) throws -> SignatureVerifier {
        SignatureVerifier(
            keyRing: try KeyRing(keys ?? [Fixtures.key()]), configuration: configuration, replayGuard: replayGuard,
            clock: { time })
    }

    /// The message a server builds from what arrives: the raw target, the `Host` field the
    /// transport adds, and the headers and body as sent.
    static func received(_ request: HTTPRequest) throws -> SignableMessage {
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)!
        var target = components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        var headers = HTTPHeaders([("Host", components.host! + (components.port.map { ":\($0)" } ?? ""))])
        headers.append(contentsOf: request.headers)
        return try SignableMessage(
            method: request.method.rawValue, scheme: components.scheme ?? "https", requestTarget: target,
            headers: headers, body: request.body)
    }

    /// Signs a hand-made signature input over a message, for inputs the signer would not make.
    static func sign(_ message: inout SignableMessage, input: SignatureInput, key: SigningKey) throws {
        let base = try SignatureBase(message: message, input: input)
        let mac = try key.secret.authenticationCode(for: base.bytes)
        message.headers["Signature-Input"] = try input.serializedMember()
        message.headers["Signature"] = input.label + "=:" + Data(mac).base64EncodedString() + ":"
    }
}
