import Foundation
import HTTPTypes
import ServiceCore
import URLSessionTransport

/// Talks HTTP to the cluster's daemons, nginx and upstreams as an app would.
struct ClusterClient: Sendable {
    let transport: any Transport

    init() {
        transport = URLSessionTransport(configuration: .init(defaultTimeout: .seconds(30), maxConnectionsPerHost: 64))
    }

    /// One answer: status, fields and body.
    struct Answer: Sendable {
        var status: Int
        var headers: HTTPHeaders
        var body: Data

        /// The body as a JSON object, or `nil`.
        var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] }
        /// The problem body's `code`, or `nil`.
        var code: String? { json?["code"] as? String }
        /// The body as text.
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Sends a request to `url` as user `user` (bearer `sandbox-<user>`), JSON body optional.
    func send(
        _ method: HTTPMethod, _ url: String, user: String? = "alice", headers: HTTPHeaders = [:], json: String? = nil
    ) async throws -> Answer {
        var fields = headers
        if let user { fields.add(name: "Authorization", value: "Bearer sandbox-\(user)") }
        if json != nil { fields.add(name: "Content-Type", value: "application/json") }
        guard let target = URL(string: url) else { throw ClusterError("not a URL: \(url)") }
        let request = HTTPRequest(
            method: method, url: target, headers: fields, body: json.map { Data($0.utf8) }, timeout: .seconds(30))
        let response = try await transport.send(request)
        return Answer(status: response.status, headers: response.headers, body: response.body)
    }

    /// A payment of `amountMinor` EUR from `payer` to `payee` with `key` as its `Idempotency-Key`.
    func pay(_ base: String, from payer: String, to payee: String, amountMinor: Int, key: String) async throws -> Answer
    {
        try await send(
            .post, base + "/v1/payments", user: payer, headers: ["Idempotency-Key": key],
            json: #"{"payee":"\#(payee)","amountMinor":\#(amountMinor),"currency":"EUR"}"#)
    }

    /// The balance of `user`'s wallet in minor units, read through `base`.
    func balance(_ base: String, of user: String) async throws -> Int {
        let answer = try await send(.get, base + "/v1/wallet", user: user)
        guard answer.status == 200, let balance = answer.json?["balance"] as? [String: Any],
            let amount = balance["amountMinor"] as? Int
        else { throw ClusterError("GET /v1/wallet as \(user) answered \(answer.status): \(answer.text)") }
        return amount
    }
}

/// Rate limits off for every class, so that a test's burst measures the shared state it tests.
let rateLimitsOff = """
    {"reads": {"perUser": null, "perAddress": null}, "writes": {"perUser": null, "perAddress": null}, \
    "payments": {"perUser": null, "perAddress": null}}
    """
