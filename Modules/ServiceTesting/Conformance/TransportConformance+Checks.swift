import Foundation
import HTTPTypes
import JSON
import ServiceCore

extension TransportConformance {
    func checkMethods() async throws {
        try await withServer { server in
            let methods: [HTTPMethod] = [.get, .post, .put, .patch, .delete, .options, HTTPMethod(rawValue: "PURGE")]
            for method in methods {
                let body: Data? = [.post, .put, .patch].contains(method) ? Data("payload of \(method)".utf8) : nil
                let response = try await send(method, server.url("/echo/method"), body: body, check: .methods)
                try expect(response.status == 200, .methods, "\(method) got status \(response.status), not 200")
                try expect(
                    response.headers["X-Echo-Method"] == method.rawValue,
                    .methods,
                    "\(method) reached the server as \(response.headers["X-Echo-Method"] ?? "nothing")"
                )
                if let body {
                    try expect(response.body == body, .methods, "the \(method) body did not come back exactly")
                }
            }
        }
    }

    func checkPathAndQuery() async throws {
        let targets = [
            "/echo/a%2Fb/c%20d?x=1&y=a%26b&z=%E2%9C%93&empty=&flag",
            "/echo/caf%C3%A9/%F0%9F%98%80?q=%2B%3D%3F&plus=a+b",
            "/echo/%25literal%25/~user/x-y_z.json?list=%5B1,2%5D&pct=%25",
            "/echo/no-query",
        ]
        try await withServer { server in
            for target in targets {
                let response = try await send(.get, server.url(target), check: .pathAndQuery)
                try expect(
                    response.headers["X-Echo-Target"] == target,
                    .pathAndQuery,
                    "sent \(target), the server received \(response.headers["X-Echo-Target"] ?? "nothing")"
                )
            }
        }
    }

    func checkRequestHeaders() async throws {
        let sent: HTTPHeaders = [
            "X-Conformance": "value with  two spaces",
            "X-Token": "abc.def_ghi-123~",
            "X-Quoted": "\"quoted\"; q=0.5",
            "Content-Type": "application/vnd.conformance+json",
            "X-Repeat": "first",
            "X-Repeat": "second",
        ]
        try await withServer { server in
            let response = try await send(
                .post,
                server.url("/inspect"),
                headers: sent,
                body: Data("{}".utf8),
                check: .requestHeaders
            )
            let inspection = try decodeInspection(response, .requestHeaders)
            let received = HTTPHeaders(inspection.headers.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil })
            for name in ["X-Conformance", "X-Token", "X-Quoted", "Content-Type"] {
                try expect(
                    received[name] == sent[name],
                    .requestHeaders,
                    "\(name) was sent as \(sent[name]!.debugDescription), received as "
                        + (received[name]?.debugDescription ?? "nothing")
                )
            }
            let repeated = splitValues(received.values(for: "X-Repeat"))
            try expect(
                repeated == ["first", "second"],
                .requestHeaders,
                "X-Repeat was sent twice (first, second), received as \(repeated)"
            )
        }
    }

    func checkTextBody() async throws {
        let body = Data(#"{"name":"Zoë","emoji":"😀","text":"line\nbreak","n":1}"#.utf8)
        let headers: HTTPHeaders = ["Content-Type": "application/json; charset=utf-8"]
        try await withServer { server in
            let echoed = try await send(.post, server.url("/echo/text"), headers: headers, body: body, check: .textBody)
            try expect(
                echoed.body == body, .textBody, "the text body came back as \(echoed.body.count) different bytes")
            let inspected = try await send(
                .post, server.url("/inspect"), headers: headers, body: body, check: .textBody)
            let inspection = try decodeInspection(inspected, .textBody)
            try expect(
                inspection.bodyLength == body.count,
                .textBody,
                "sent \(body.count) body bytes, the server received \(inspection.bodyLength)"
            )
            let contentType = inspection.headers.first { $0.first?.lowercased() == "content-type" }?.last
            try expect(
                contentType == headers["Content-Type"],
                .textBody,
                "Content-Type arrived as \(contentType ?? "nothing")"
            )
        }
    }

    func checkBinaryBody() async throws {
        var body = Data(
            (0...255).map { UInt8($0) } + (0...255).reversed().map { UInt8($0) } + [0, 0, 0, 13, 10, 13, 10])
        body.append(randomBytes(64 * 1024))
        let headers: HTTPHeaders = ["Content-Type": "application/octet-stream"]
        try await withServer { server in
            let response = try await send(
                .put, server.url("/echo/binary"), headers: headers, body: body, check: .binaryBody)
            try expect(
                response.headers["X-Echo-Length"] == String(body.count),
                .binaryBody,
                "sent \(body.count) bytes, the server received \(response.headers["X-Echo-Length"] ?? "?")"
            )
            try expect(response.body == body, .binaryBody, "the binary body did not come back byte for byte")
        }
    }

    func checkLargeBodies() async throws {
        let size = options.largeBodySize
        let body = randomBytes(size)
        try await withServer { server in
            let echoed = try await send(.post, server.url("/echo/large"), body: body, check: .largeBodies)
            try expect(
                echoed.headers["X-Echo-Length"] == String(size),
                .largeBodies,
                "sent \(size) bytes, the server received \(echoed.headers["X-Echo-Length"] ?? "?")"
            )
            try expect(
                echoed.body == body, .largeBodies, "the \(size)-byte body came back as \(echoed.body.count) bytes")
            let downloaded = try await send(.get, server.url("/bytes/\(size)"), check: .largeBodies)
            try expect(
                downloaded.body == TransportConformance.pattern(size),
                .largeBodies,
                "downloaded \(downloaded.body.count) bytes, not the \(size) sent"
            )
        }
    }

    func checkRepeatedResponseHeaders() async throws {
        try await withServer { server in
            let response = try await send(.get, server.url("/repeated-headers"), check: .repeatedResponseHeaders)
            let values = splitValues(response.headers.values(for: "X-Multi"))
            try expect(
                values == ["one", "two"],
                .repeatedResponseHeaders,
                "X-Multi was sent as one, two; the transport returned \(values)"
            )
            try expect(
                response.headers["X-Single"] == "only",
                .repeatedResponseHeaders,
                "X-Single came back as \(response.headers["X-Single"] ?? "nothing")"
            )
        }
    }

    func checkStatusCodes() async throws {
        let codes = [
            200, 201, 202, 204, 301, 302, 303, 304, 307, 308, 400, 401, 403, 404, 409, 418, 422, 429, 500, 501, 502,
            503, 504,
        ]
        try await withServer { server in
            for code in codes {
                let response = try await send(.get, server.url("/status/\(code)"), check: .statusCodes)
                try expect(
                    response.status == code,
                    .statusCodes,
                    "/status/\(code) came back as \(response.status)"
                        + ((300..<400).contains(code) ? " (redirects must not be followed)" : "")
                )
                if code == 204 || code == 304 {
                    try expect(response.body.isEmpty, .statusCodes, "\(code) came back with a body")
                } else {
                    try expect(
                        response.body == Data("status \(code)".utf8),
                        .statusCodes,
                        "the body of \(code) came back as \(response.body.count) different bytes"
                    )
                }
            }
        }
    }

    func checkInterimResponses() async throws {
        let script: [ScriptedSocketServer.Step] = [
            .readRequest,
            .send("HTTP/1.1 100 Continue\r\n\r\n"),
            // RFC 9112 §6.3: an interim answer ends with its head, whatever its fields announce.
            .send("HTTP/1.1 100 Continue\r\nContent-Length: 4\r\n\r\n"),
            .send("HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n"),
            .send("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-Final: yes\r\nConnection: close\r\n\r\nfinal"),
            .close,
        ]
        try await ScriptedSocketServer.withServer(script: script) { server in
            let url = server.baseURL.appendingPathComponent("interim")
            let response = try await send(.get, url, check: .interimResponses)
            try expect(response.status == 200, .interimResponses, "the final status came back as \(response.status)")
            try expect(
                response.body == Data("final".utf8),
                .interimResponses,
                "the final body came back as \(String(decoding: response.body, as: UTF8.self).debugDescription)"
            )
            try expect(response.headers["X-Final"] == "yes", .interimResponses, "the final headers were lost")
            try expect(
                !response.headers.contains("Link"),
                .interimResponses,
                "a header of the interim 103 was mixed into the final response"
            )
        }
    }

    func checkEmptyBodies() async throws {
        try await withServer { server in
            let empty = try await send(.get, server.url("/empty"), check: .emptyBodies)
            try expect(empty.status == 200 && empty.body.isEmpty, .emptyBodies, "/empty came back with a body")
            let posted = try await send(.post, server.url("/echo/empty"), body: Data(), check: .emptyBodies)
            try expect(
                posted.headers["X-Echo-Length"] == "0" && posted.body.isEmpty,
                .emptyBodies,
                "an empty POST body arrived as \(posted.headers["X-Echo-Length"] ?? "?") bytes"
            )
            let deleted = try await send(.delete, server.url("/echo/none"), check: .emptyBodies)
            try expect(deleted.headers["X-Echo-Length"] == "0", .emptyBodies, "a DELETE without body sent a body")
            let noContent = try await send(.get, server.url("/status/204"), check: .emptyBodies)
            try expect(noContent.status == 204 && noContent.body.isEmpty, .emptyBodies, "204 came back with a body")
        }
    }

    func checkHead() async throws {
        try await withServer { server in
            let echoed = try await send(.head, server.url("/echo/head"), check: .head)
            try expect(echoed.status == 200, .head, "HEAD got status \(echoed.status)")
            try expect(echoed.headers["X-Echo-Method"] == "HEAD", .head, "HEAD reached the server as another method")
            try expect(echoed.body.isEmpty, .head, "HEAD came back with \(echoed.body.count) body bytes")
            let sized = try await send(.head, server.url("/bytes/1024"), check: .head)
            try expect(sized.status == 200 && sized.body.isEmpty, .head, "HEAD of a 1 KiB resource returned a body")
        }
    }

    func checkTimeout() async throws {
        try await withServer { server in
            let clock = ContinuousClock()
            let start = clock.now
            let error = try await expectFailure(.timedOut, .timeout, "a request with a short timeout to a slow server")
            {
                try await transport.send(
                    HTTPRequest(
                        method: .get, url: server.url("/delay/\(slowAnswerMilliseconds)"), timeout: options.shortTimeout
                    )
                )
            }
            let elapsed = clock.now - start
            try expect(
                elapsed < options.slowAnswer * 0.75,
                .timeout,
                "the timeout of \(options.shortTimeout) fired only after \(elapsed) (\(error.message))"
            )
            let after = try await send(.get, server.url("/echo/after-timeout"), check: .timeout)
            try expect(after.status == 200, .timeout, "a request after the timeout got status \(after.status)")
        }
    }

    func checkCancellation() async throws {
        try await withServer { server in
            let transport = self.transport
            let timeout = options.requestTimeout
            let url = server.url("/delay/\(slowAnswerMilliseconds)")
            let clock = ContinuousClock()
            let start = clock.now
            let task = Task { try await transport.send(HTTPRequest(method: .get, url: url, timeout: timeout)) }
            try await Task.sleep(for: .milliseconds(200))
            task.cancel()
            _ = try await expectFailure(.cancelled, .cancellation, "a request whose task was cancelled") {
                try await task.value
            }
            let elapsed = clock.now - start
            try expect(
                elapsed < options.slowAnswer * 0.75, .cancellation, "cancellation took effect only after \(elapsed)")

            let cancelledFirst = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await transport.send(HTTPRequest(method: .get, url: url, timeout: timeout))
            }
            _ = try await expectFailure(.cancelled, .cancellation, "a request sent from a cancelled task") {
                try await cancelledFirst.value
            }
            let after = try await send(.get, server.url("/echo/after-cancel"), check: .cancellation)
            try expect(after.status == 200, .cancellation, "a request after a cancellation got status \(after.status)")
        }
    }

    func checkConnectionClosedMidAnswer() async throws {
        let scripts: [(String, [ScriptedSocketServer.Step])] = [
            (
                "a server that closes after part of the body",
                [.readRequest, .send("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nonly part of the body"), .close]
            ),
            ("a server that closes without answering", [.readRequest, .close]),
        ]
        for (description, script) in scripts {
            try await ScriptedSocketServer.withServer(script: script) { server in
                let url = server.baseURL.appendingPathComponent("closing")
                _ = try await expectFailure(.connectionClosed, .connectionClosedMidAnswer, description) {
                    try await transport.send(HTTPRequest(method: .get, url: url, timeout: .seconds(10)))
                }
            }
        }
    }

    func checkConnectionRefused() async throws {
        let port = try ScriptedSocketServer.closedPort()
        let url = URL(string: "http://127.0.0.1:\(port)/refused")!
        _ = try await expectFailure(.connectionFailed, .connectionRefused, "a request to a closed port") {
            try await transport.send(HTTPRequest(method: .get, url: url, timeout: .seconds(10)))
        }
    }

    func checkConcurrentRequests() async throws {
        try await withServer { server in
            let transport = self.transport
            let timeout = options.requestTimeout
            let failures = await withTaskGroup(of: String?.self) { group in
                for index in 0..<options.concurrency {
                    let target = "/echo/concurrent/\(index)?i=\(index)"
                    let body = Data("request \(index) ".utf8 + [UInt8](repeating: UInt8(index % 256), count: index))
                    let request = HTTPRequest(method: .post, url: server.url(target), body: body, timeout: timeout)
                    group.addTask {
                        do {
                            let response = try await transport.send(request)
                            if response.status != 200 { return "request \(index) got status \(response.status)" }
                            if response.headers["X-Echo-Target"] != target || response.body != body {
                                return "request \(index) got the answer of another request"
                            }
                            return nil
                        } catch {
                            return "request \(index) threw \(error)"
                        }
                    }
                }
                var failures: [String] = []
                for await failure in group {
                    if let failure { failures.append(failure) }
                }
                return failures
            }
            try expect(
                failures.isEmpty,
                .concurrentRequests,
                "\(failures.count) of \(options.concurrency) failed, for example: \(failures.prefix(3).joined(separator: "; "))"
            )
        }
    }
}

// MARK: - Helpers

extension TransportConformance {
    /// ``Options/slowAnswer`` in whole milliseconds, at most the server's 20 s.
    private var slowAnswerMilliseconds: Int { min(20_000, options.slowAnswer.wholeMilliseconds) }

    private func withServer<T>(_ body: (LoopbackServer) async throws -> T) async throws -> T {
        try await withLoopbackServer(handler: TransportConformance.handle, body)
    }

    private func send(
        _ method: HTTPMethod,
        _ url: URL,
        headers: HTTPHeaders = [:],
        body: Data? = nil,
        check: Check
    ) async throws -> HTTPResponse {
        let request = HTTPRequest(
            method: method, url: url, headers: headers, body: body, timeout: options.requestTimeout)
        do {
            return try await transport.send(request)
        } catch {
            throw ConformanceFailure(
                check: check, message: "\(method) \(url.path) threw \(error); a response was expected")
        }
    }

    private func expect(_ condition: Bool, _ check: Check, _ message: @autoclosure () -> String) throws {
        if !condition { throw ConformanceFailure(check: check, message: message()) }
    }

    /// Runs `operation`, which must throw a `TransportError` with `code`.
    private func expectFailure(
        _ code: TransportError.Code,
        _ check: Check,
        _ description: String,
        _ operation: () async throws -> HTTPResponse
    ) async throws -> TransportError {
        do {
            let response = try await operation()
            throw ConformanceFailure(
                check: check,
                message: "\(description) returned status \(response.status); TransportError \(code) was expected"
            )
        } catch let error as TransportError {
            try expect(
                error.code == code,
                check,
                "\(description) threw TransportError \(error.code) (\(error.message)); \(code) was expected"
            )
            return error
        } catch let error as ConformanceFailure {
            throw error
        } catch {
            throw ConformanceFailure(
                check: check,
                message: "\(description) threw \(type(of: error)) (\(error)); TransportError \(code) was expected"
            )
        }
    }

    private func decodeInspection(_ response: HTTPResponse, _ check: Check) throws -> Inspection {
        guard response.status == 200,
            let inspection = try? StreamingJSONDecoder().decode(Inspection.self, from: response.body)
        else {
            throw ConformanceFailure(
                check: check, message: "/inspect answered \(response.status) with an unreadable body")
        }
        return inspection
    }

    /// Repeated values whether the transport kept them apart or joined them with commas.
    private func splitValues(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// `count` unpredictable bytes: SplitMix64 seeded from the system's generator (one system call,
    /// not one per eight bytes, so 8 MiB stay cheap in debug builds).
    private func randomBytes(_ count: Int) -> Data {
        var state = UInt64.random(in: .min ... .max)
        var data = Data(count: count)
        data.withUnsafeMutableBytes { raw in
            var offset = 0
            while offset < count {
                state &+= 0x9E37_79B9_7F4A_7C15
                var mixed = state
                mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
                mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
                mixed ^= mixed >> 31
                withUnsafeBytes(of: mixed.littleEndian) { word in
                    let length = min(8, count - offset)
                    raw.baseAddress!.advanced(by: offset).copyMemory(from: word.baseAddress!, byteCount: length)
                }
                offset += 8
            }
        }
        return data
    }
}

extension Duration {
    /// Whole milliseconds.
    fileprivate var wholeMilliseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }
}
