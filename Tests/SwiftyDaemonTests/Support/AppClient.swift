import Foundation
import HTTPTypes
import ServiceCore
import URLSessionTransport

/// Talks HTTP to the daemon's app API as an app would, through a real transport.
struct AppClient: Sendable {
    let baseURL: String
    let transport: any Transport

    init(baseURL: String, transport: any Transport = URLSessionTransport()) {
        self.baseURL = baseURL
        self.transport = transport
    }

    struct Answer: Sendable {
        var status: Int
        var headers: HTTPHeaders
        var body: Data

        var json: [String: Any]? {
            (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        }

        var text: String { String(decoding: body, as: UTF8.self) }
    }

    func send(
        _ method: HTTPMethod,
        _ path: String,
        token: String? = "sandbox-alice",
        headers: HTTPHeaders = [:],
        json: String? = nil,
        timeout: Duration = .seconds(20)
    ) async throws -> Answer {
        var fields = headers
        if let token { fields.add(name: "Authorization", value: "Bearer \(token)") }
        if json != nil && !fields.contains("content-type") {
            fields.add(name: "Content-Type", value: "application/json")
        }
        let request = HTTPRequest(
            method: method,
            url: URL(string: baseURL + path)!,
            headers: fields,
            body: json.map { Data($0.utf8) },
            timeout: timeout
        )
        let response = try await transport.send(request)
        return Answer(status: response.status, headers: response.headers, body: response.body)
    }

    func get(_ path: String, token: String? = "sandbox-alice") async throws -> Answer {
        try await send(.get, path, token: token)
    }
}
