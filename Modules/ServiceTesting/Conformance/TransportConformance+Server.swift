import Foundation
public import HTTPServer
public import HTTPTypes
import JSON
import ServiceCore

extension TransportConformance {
    /// The suite's server side, as an ``HTTPServer/HTTPServer`` handler.
    ///
    /// - `/echo/...`: 200; the body is the request body; `X-Echo-Method`, `X-Echo-Target` (the raw
    ///   request-target) and `X-Echo-Length` describe the request.
    /// - `/inspect`: 200; a JSON object with the method, target and received header fields.
    /// - `/status/<code>`: that status (200-599); 3xx with a `Location`.
    /// - `/repeated-headers`: 200 with `X-Multi: one` and `X-Multi: two`.
    /// - `/empty`: 200 with an empty body.
    /// - `/bytes/<n>`: `n` bytes (at most 16 MiB) of a fixed pattern.
    /// - `/delay/<ms>`: waits (at most 20 s), then 200.
    @Sendable public static func handle(_ request: ServerRequest) async -> ServerResponse {
        let answer = await answer(
            method: request.method,
            target: request.target,
            path: request.path,
            headers: request.headers,
            body: request.body,
            wait: { try? await Task.sleep(for: $0) }
        )
        return ServerResponse(status: answer.status, headers: ServerHeaders(answer.headers), body: answer.body)
    }

    /// The suite's server side answering in process, without sockets, as a transport would see it:
    /// what ``MockTransport`` uses in ``TransportConformance/inProcessTransport()``. A delay honours
    /// the request's timeout and the task's cancellation.
    public static func answerInProcess(_ request: HTTPRequest) async throws -> HTTPResponse {
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        var path = components?.percentEncodedPath ?? request.url.path
        if path.isEmpty { path = "/" }
        let target = path + (components?.percentEncodedQuery.map { "?" + $0 } ?? "")
        let answer = try await answer(
            method: request.method.rawValue,
            target: target,
            path: path,
            headers: request.headers,
            body: request.body ?? Data(),
            wait: { try await MockTransport.wait($0, for: request) }
        )
        let body = request.method == .head ? Data() : answer.body
        return HTTPResponse(status: answer.status, headers: HTTPHeaders(answer.headers), body: body)
    }

    /// A ``MockTransport`` that answers like the suite's server, in process: run
    /// ``Check/inProcessCases`` on it.
    public static func inProcessTransport() -> MockTransport {
        MockTransport(fallback: .respond { try await answerInProcess($0) })
    }

    /// What the server received, as `/inspect` reports it.
    struct Inspection: Codable {
        var method: String
        var target: String
        var headers: [[String]]
        var bodyLength: Int
    }

    struct Answer {
        var status: Int
        var headers: [(String, String)]
        var body: Data
    }

    static func answer(
        method: String,
        target: String,
        path: String,
        headers: HTTPHeaders,
        body: Data,
        wait: (Duration) async throws -> Void
    ) async rethrows -> Answer {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        let argument = parts.count > 1 ? Int(parts[1]) : nil
        switch parts.first {
        case "echo":
            return Answer(
                status: 200,
                headers: [
                    ("Content-Type", "application/octet-stream"), ("X-Echo-Method", method),
                    ("X-Echo-Target", target), ("X-Echo-Length", String(body.count)),
                ],
                body: body
            )
        case "inspect":
            let inspection = Inspection(
                method: method,
                target: target,
                headers: headers.map { [$0.name, $0.value] },
                bodyLength: body.count
            )
            let encoded = (try? StreamingJSONEncoder().encode(inspection)) ?? Data()
            return Answer(status: 200, headers: [("Content-Type", "application/json")], body: encoded)
        case "status":
            guard let code = argument, (200...599).contains(code) else { return notFound(path) }
            var fields = [("X-Status", String(code))]
            if (300...399).contains(code), code != 304 { fields.append(("Location", "/echo/redirected")) }
            let empty = code == 204 || code == 304
            return Answer(status: code, headers: fields, body: empty ? Data() : Data("status \(code)".utf8))
        case "repeated-headers":
            return Answer(
                status: 200,
                headers: [("X-Multi", "one"), ("X-Single", "only"), ("X-Multi", "two")],
                body: Data("repeated".utf8)
            )
        case "empty":
            return Answer(status: 200, headers: [], body: Data())
        case "bytes":
            guard let count = argument, (0...(16 << 20)).contains(count) else { return notFound(path) }
            return Answer(status: 200, headers: [("Content-Type", "application/octet-stream")], body: pattern(count))
        case "delay":
            guard let milliseconds = argument, (0...20_000).contains(milliseconds) else { return notFound(path) }
            try await wait(.milliseconds(milliseconds))
            return Answer(status: 200, headers: [], body: Data("late".utf8))
        default:
            return notFound(path)
        }
    }

    /// `count` bytes cycling through every byte value, offset by position so runs differ
    /// (byte `i` is `i + i / 251`, modulo 256; the sequence repeats every 251 × 256 bytes).
    static func pattern(_ count: Int) -> Data {
        var data = Data(capacity: count)
        data.append(contentsOf: period.prefix(count))
        while data.count < count {
            data.append(contentsOf: period.prefix(count - data.count))
        }
        return data
    }

    private static let period: [UInt8] = (0..<(251 * 256)).map { UInt8(truncatingIfNeeded: $0 &+ $0 / 251) }

    private static func notFound(_ path: String) -> Answer {
        Answer(status: 404, headers: [], body: Data("no conformance endpoint \(path)".utf8))
    }
}
