import Foundation

extension FramingCase {
    /// Sends the case on a fresh connection to `target` and returns how the server's behaviour
    /// differs from the case: every answer's status; for each refusal a JSON problem
    /// (`application/problem+json` whose `status` is the answer's) with `Connection: close`; then
    /// the connection's state (closed, or serving a further request). Empty when it matches.
    ///
    /// The blocking socket work runs on a thread of its own, away from the cooperative pool an
    /// in-process server's handlers need.
    public func mismatches(against target: FramingTarget) async -> [String] {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: self.run(against: target)) }.start()
        }
    }

    private func run(against target: FramingTarget) -> [String] {
        let connection: RawConnection
        do {
            connection = try RawConnection(port: target.port, timeout: .seconds(5))
        } catch {
            return ["cannot connect: \(error)"]
        }
        // The server may refuse and stop reading before every byte is sent.
        try? connection.send(bytes)
        if halfClose { connection.shutdownWrite() }
        let expected = answers.map { $0.status(on: target) }
        var responses: [RawConnection.Response] = []
        let isHead = bytes.starts(with: Array("HEAD ".utf8))
        while responses.count < expected.count {
            guard let response = try? connection.readResponse(bodyless: isHead) else { break }
            responses.append(response)
        }
        var found: [String] = []
        if responses.map(\.status) != expected {
            found.append("answers \(responses.map(\.status)), expected \(expected)")
        }
        for (answer, response) in zip(answers, responses) where answer != .served && response.status >= 400 {
            if response.header("Content-Type") != "application/problem+json" {
                found.append("the \(response.status) is not a JSON problem")
            }
            if response.header("Connection")?.lowercased() != "close" {
                found.append("the \(response.status) does not say Connection: close")
            }
            let problem = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
            if problem?["status"] as? Int != response.status {
                found.append("the \(response.status) problem's status is \(problem?["status"] ?? "missing")")
            }
        }
        switch after {
        case .closed:
            if !connection.waitForClose() { found.append("the connection was not closed") }
        case .open:
            let followUp = Result {
                try connection.send(Array("GET /next HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
                return try connection.readResponse(bodyless: false).status
            }
            if (try? followUp.get()) != target.servedStatus {
                found.append("the connection did not serve a further request: \(followUp)")
            }
        }
        return found
    }
}
