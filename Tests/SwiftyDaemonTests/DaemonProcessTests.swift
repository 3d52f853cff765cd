import Foundation
import HTTPTypes
import ServiceCore
import ServiceTesting
import Testing
import URLSessionTransport

#if canImport(Glibc)
    import Glibc
#endif

/// The built `swiftyd` run as a process in sandbox mode, driven over HTTP on loopback.
@Suite(.timeLimit(.minutes(3)))
struct DaemonProcessTests {
    @Test func everyRouteAnswersOnTheHappyPath() async throws {
        let daemon = try await DaemonProcess.start()
        let app = AppClient(baseURL: daemon.baseURL)

        let me = try await app.get("/v1/me")
        #expect(me.status == 200)
        #expect(me.json?["id"] as? String == "alice")
        #expect(me.headers["x-request-id"]?.isEmpty == false)

        let bob = try await app.get("/v1/users/bob")
        #expect(bob.status == 200)
        #expect(bob.json?["id"] as? String == "bob")
        let followersBefore = try #require(bob.json?["followerCount"] as? Int)

        let unfollowFirst = try await app.send(.delete, "/v1/me/following/bob")
        #expect(unfollowFirst.status == 204)
        let follow = try await app.send(.put, "/v1/me/following/bob")
        #expect(follow.status == 204)
        let afterFollow = try #require(try await app.get("/v1/users/bob").json?["followerCount"] as? Int)
        #expect(afterFollow >= followersBefore - 1)
        #expect(afterFollow <= followersBefore + 1)
        #expect(try await app.send(.delete, "/v1/me/following/bob").status == 204)
        let afterUnfollow = try #require(try await app.get("/v1/users/bob").json?["followerCount"] as? Int)
        #expect(afterUnfollow == afterFollow - 1)

        let feed = try await app.get("/v1/feed?limit=2")
        #expect(feed.status == 200)
        let items = try #require(feed.json?["items"] as? [[String: Any]])
        #expect(items.count == 2)
        let cursor = try #require(feed.json?["nextCursor"] as? String)
        let next = try await app.get(
            "/v1/feed?limit=2&cursor=\(cursor.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")
        #expect(next.status == 200)
        let nextIDs = (next.json?["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
        #expect(!nextIDs.isEmpty)
        #expect(Set(nextIDs).isDisjoint(with: items.compactMap { $0["id"] as? String }))

        let post = try await app.send(.post, "/v1/posts", json: #"{"text": "hello from the tests"}"#)
        #expect(post.status == 201)
        let postID = try #require(post.json?["id"] as? String)
        #expect(post.json?["authorId"] as? String == "alice")
        let withAttachment = try await app.send(
            .post,
            "/v1/posts",
            json:
                #"{"text": "a picture", "attachments": [{"fileName": "a.png", "contentType": "image/png", "data": "iVBORw0KGgo="}]}"#
        )
        #expect(withAttachment.status == 201)
        #expect((withAttachment.json?["attachments"] as? [Any])?.count == 1)

        let like = try await app.send(.put, "/v1/posts/\(postID)/like", token: "sandbox-bob")
        #expect(like.status == 204)

        let wallet = try await app.get("/v1/wallet")
        #expect(wallet.status == 200)
        #expect(wallet.json?["userId"] as? String == "alice")

        let payment = try await app.send(
            .post,
            "/v1/payments",
            headers: ["Idempotency-Key": "happy-path-1"],
            json: #"{"payee": "bob", "amountMinor": 250, "currency": "EUR", "memo": "coffee"}"#
        )
        #expect(payment.status == 201)
        let paymentID = try #require(payment.json?["id"] as? String)
        let fetched = try await app.get("/v1/payments/\(paymentID)")
        #expect(fetched.status == 200)
        #expect(fetched.json?["id"] as? String == paymentID)

        let home = try await app.get("/v1/home")
        #expect(home.status == 200)
        #expect((home.json?["profile"] as? [String: Any])?["id"] as? String == "alice")
        #expect(home.json?["feed"] is [String: Any])
        #expect(home.json?["wallet"] is [String: Any])
        #expect((home.json?["errors"] as? [Any])?.isEmpty == true)
    }

    @Test func missingOrWrongTokensAre401() async throws {
        let daemon = try await DaemonProcess.start()
        let app = AppClient(baseURL: daemon.baseURL)
        for (token, header) in [
            (nil, nil), ("not-a-real-token", nil), (nil, "Basic YWxpY2U6c2VjcmV0"), (nil, "Bearer"),
        ]
            as [(String?, String?)]
        {
            let answer = try await app.send(
                .get,
                "/v1/me",
                token: token,
                headers: header.map { ["Authorization": $0] } ?? [:]
            )
            #expect(answer.status == 401, "token \(token ?? "-") header \(header ?? "-")")
            #expect(answer.headers["content-type"] == "application/problem+json")
            #expect(answer.headers["www-authenticate"]?.hasPrefix("Bearer") == true)
            #expect(answer.json?["requestId"] as? String == answer.headers["x-request-id"])
        }
    }

    @Test func onlyThePayerAndThePayeeSeeAPayment() async throws {
        let daemon = try await DaemonProcess.start()
        let app = AppClient(baseURL: daemon.baseURL)
        let created = try await app.send(
            .post,
            "/v1/payments",
            headers: ["Idempotency-Key": "visibility-1"],
            json: #"{"payee": "bob", "amountMinor": 100, "currency": "EUR"}"#
        )
        #expect(created.status == 201)
        let id = try #require(created.json?["id"] as? String)
        #expect(try await app.get("/v1/payments/\(id)", token: "sandbox-alice").status == 200)
        #expect(try await app.get("/v1/payments/\(id)", token: "sandbox-bob").status == 200)
        let stranger = try await app.get("/v1/payments/\(id)", token: "sandbox-carol")
        #expect(stranger.status == 404)
        #expect(!stranger.text.contains("alice"))
        #expect(!stranger.text.contains("amountMinor"))
        #expect(
            Set(stranger.json?.keys.map { $0 } ?? []) == ["type", "title", "status", "detail", "code", "requestId"])
        #expect(stranger.json?["code"] as? String == "payment_not_found")
        #expect(try await app.get("/v1/payments/no-such-payment", token: "sandbox-carol").status == 404)
    }

    @Test func theSameIdempotencyKeyThreeTimesChargesOnce() async throws {
        let daemon = try await DaemonProcess.start()
        let app = AppClient(baseURL: daemon.baseURL)
        func balance(_ token: String) async throws -> Int {
            let wallet = try await app.get("/v1/wallet", token: token)
            return try #require((wallet.json?["balance"] as? [String: Any])?["amountMinor"] as? Int)
        }
        let aliceBefore = try await balance("sandbox-alice")
        let bobBefore = try await balance("sandbox-bob")
        var ids: Set<String> = []
        for _ in 0..<3 {
            let answer = try await app.send(
                .post,
                "/v1/payments",
                headers: ["Idempotency-Key": "three-times"],
                json: #"{"payee": "bob", "amountMinor": 1234, "currency": "EUR", "memo": "once"}"#
            )
            #expect(answer.status == 201)
            if let id = answer.json?["id"] as? String { ids.insert(id) }
        }
        #expect(ids.count == 1)
        #expect(try await balance("sandbox-alice") == aliceBefore - 1234)
        #expect(try await balance("sandbox-bob") == bobBefore + 1234)

        let reused = try await app.send(
            .post,
            "/v1/payments",
            headers: ["Idempotency-Key": "three-times"],
            json: #"{"payee": "bob", "amountMinor": 9999, "currency": "EUR"}"#
        )
        #expect(reused.status == 422)
        #expect(reused.json?["module"] as? String == "PaymentModule")
        #expect(try await balance("sandbox-alice") == aliceBefore - 1234)
    }

    @Test func badInputIsA4xxProblemNeverA500() async throws {
        // More payment requests than the default per-user rate limit allows in a second.
        let daemon = try await DaemonProcess.start(
            arguments: [
                "--config", try DaemonProcess.configurationFile(#"{"rateLimits": {"payments": {"perUser": null}}}"#),
            ])
        let app = AppClient(baseURL: daemon.baseURL)
        let key: HTTPHeaders = ["Idempotency-Key": "bad-input"]
        let cases: [(HTTPMethod, String, HTTPHeaders, String?, Int)] = [
            (.post, "/v1/payments", [:], #"{"payee": "bob", "amountMinor": 1, "currency": "EUR"}"#, 400),
            (.post, "/v1/payments", key, "{not json", 400),
            (.post, "/v1/payments", key, #"{"payee": "bob", "amountMinor": "ten", "currency": "EUR"}"#, 400),
            (.post, "/v1/payments", key, #"{"payee": "bob", "amount": 10, "currency": "EUR"}"#, 400),
            (.post, "/v1/payments", key, #"{"payee": "bob", "amountMinor": 10, "currency": "EUR", "extra": 1}"#, 400),
            (.post, "/v1/payments", key, #"{"payee": "bob", "amountMinor": -5, "currency": "EUR"}"#, 400),
            (.post, "/v1/payments", key, #"{"payee": "bob", "amountMinor": 5, "currency": "XXQ"}"#, 400),
            (.post, "/v1/payments", key, nil, 400),
            (.post, "/v1/posts", [:], #"{"text": ""}"#, 400),
            (.post, "/v1/posts", [:], #"{"text": 7}"#, 400),
            (.post, "/v1/posts", ["Content-Type": "text/plain"], "hello", 415),
            (.get, "/v1/feed?limit=0", [:], nil, 400),
            (.get, "/v1/feed?limit=many", [:], nil, 400),
            (.get, "/v1/users/no-such-user", [:], nil, 404),
            (.get, "/v1/users/%2E%2E", [:], nil, 400),
            (.get, "/v1/nowhere", [:], nil, 404),
            (.delete, "/v1/wallet", [:], nil, 405),
        ]
        for (method, path, headers, body, expected) in cases {
            let answer = try await app.send(method, path, headers: headers, json: body)
            #expect(answer.status == expected, "\(method) \(path) \(body ?? "")")
            #expect(answer.headers["content-type"] == "application/problem+json", "\(method) \(path)")
            #expect(answer.json?["detail"] is String, "\(method) \(path)")
        }
        // The detail says what is wrong, in the wording every decoding error in the project uses.
        let details: [(String, String)] = [
            ("{not json", "The body is not valid JSON: expected a key at byte 1."),
            (
                #"{"payee": "bob", "amountMinor": "ten", "currency": "EUR"}"#,
                #"The JSON body is not valid: expected Int64 at "amountMinor"."#
            ),
        ]
        for (body, detail) in details {
            let answer = try await app.send(.post, "/v1/payments", headers: key, json: body)
            #expect(answer.json?["detail"] as? String == detail, "\(body)")
        }
        // Over the 1 MiB limit: refused from Content-Length, before the body is read. The server
        // answers 413 and closes; a client still sending may see the close first instead.
        let huge = String(repeating: "x", count: 2 << 20)
        do {
            let oversized = try await app.send(.post, "/v1/posts", json: #"{"text": "\#(huge)"}"#)
            #expect(oversized.status == 413)
        } catch let error as TransportError {
            #expect(error.code == .connectionClosed || error.message.contains("Broken pipe"), "\(error)")
        }
        // The daemon is unharmed.
        #expect(try await app.get("/v1/me").status == 200)
    }

    @Test func adminEndpointsReportReadinessAndMetrics() async throws {
        let daemon = try await DaemonProcess.start()
        let admin = AppClient(baseURL: daemon.adminURL)
        #expect(try await admin.get("/livez", token: nil).status == 200)
        #expect(try await admin.get("/readyz", token: nil).status == 200)
        _ = try await AppClient(baseURL: daemon.baseURL).get("/v1/me")
        let metrics = try await admin.get("/metrics", token: nil)
        #expect(metrics.status == 200)
        #expect(metrics.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true)
        #expect(metrics.text.contains(#"swiftyd_http_requests_total{route="/v1/me",method="GET",status="200"} 1"#))
        #expect(
            metrics.text.contains(
                #"swiftyd_upstream_requests_total{module="UserModule",operation="profile",outcome="200"} 1"#))
        #expect(metrics.text.contains(#"swiftyd_upstream_request_duration_seconds_count{module="UserModule"}"#))
    }

    @Test func accessLogIsOneJSONLineWithoutSecrets() async throws {
        let daemon = try await DaemonProcess.start()
        let app = AppClient(baseURL: daemon.baseURL)
        let answer = try await app.send(.get, "/v1/me", headers: ["X-Request-ID": "trace-42"])
        #expect(answer.headers["x-request-id"] == "trace-42")
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(10)
        var line: String?
        while line == nil && clock.now < deadline {
            line = daemon.log.split(separator: "\n").first { $0.contains("\"request_id\":\"trace-42\"") }.map(
                String.init)
            if line == nil { try await Task.sleep(for: .milliseconds(20)) }
        }
        let entry = try #require(line)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(entry.utf8)) as? [String: Any])
        #expect(object["route"] as? String == "/v1/me")
        #expect(object["status"] as? String == "200")
        #expect((object["upstream"] as? [[String: Any]])?.contains { $0["module"] as? String == "UserModule" } == true)
        // The banner names the demo tokens on purpose; no log line may.
        let logLines = daemon.log.split(separator: "\n").filter { $0.hasPrefix("{") }
        #expect(!logLines.isEmpty)
        #expect(!logLines.contains { $0.contains("sandbox-alice") })
    }

    @Test func sigtermDuringLoadLosesNoAcceptedRequest() async throws {
        // Each upstream call takes 2.5 s (under the 5 s upstream timeout), so the 40 requests are
        // all in flight together even when a loaded machine spreads their arrival.
        let daemon = try await DaemonProcess.start(environment: ["SWIFTY_SANDBOX_LATENCY_MS": "2500"])
        let app = AppClient(
            baseURL: daemon.baseURL,
            transport: URLSessionTransport(configuration: .init(maxConnectionsPerHost: 64))
        )
        // Warm the token cache so every request below is in flight on the upstream hop.
        #expect(try await app.get("/v1/wallet").status == 200)
        let admin = AppClient(baseURL: daemon.adminURL)
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<40 {
                group.addTask { try await app.get("/v1/wallet").status }
            }
            // SIGTERM once every request has been accepted and is waiting on its upstream.
            let clock = ContinuousClock()
            let deadline = clock.now + .seconds(20)
            var allInFlight = false
            while clock.now < deadline {
                let metrics = try await admin.get("/metrics", token: nil).text
                if metrics.contains("swiftyd_http_requests_in_flight 40\n") {
                    allInFlight = true
                    break
                }
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(allInFlight, "the 40 requests were never in flight together, so SIGTERM came after the load")
            daemon.signal(SIGTERM)
            var statuses: [Int] = []
            for try await status in group { statuses.append(status) }
            return statuses
        }
        #expect(results.count == 40)
        #expect(results.allSatisfy { $0 == 200 }, "statuses: \(results)")
        #expect(await daemon.waitForExit(limit: .seconds(30)) == 0)
        await #expect(throws: (any Error).self) { try await app.get("/v1/wallet") }
        // Access lines wait for the end of their loop turn; the drain must still write all 41. The
        // exit status comes once the daemon's output has been read to its end.
        let written = daemon.log.split(separator: "\n").count { line in
            line.contains(#""route":"/v1/wallet""#) && line.contains(#""status":"200""#)
        }
        #expect(written == 41, "access lines for /v1/wallet: \(written)")
    }

    @Test func checkConfigExitsZeroOrSeventyEightWithEveryProblem() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "swiftyd-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let key = Data((0..<32).map { UInt8($0 * 7 % 256) }).base64EncodedString()
        try Data(key.utf8).write(to: directory.appendingPathComponent("user.key"))
        try Data("not base64 !!".utf8).write(to: directory.appendingPathComponent("feed.key"))
        let good = directory.appendingPathComponent("good.json")
        try Data(#"{"port": 8181, "logging": {"level": "debug"}}"#.utf8).write(to: good)
        let broken = directory.appendingPathComponent("broken.json")
        try Data(
            """
            {"mode": "live", "port": 99999, "modules": {
              "UserModule": {"baseURL": "https://users.example", "keyFile": "\(directory.path)/user.key"},
              "FeedModule": {"baseURL": "users.example", "keyFile": "\(directory.path)/feed.key"},
              "PaymentModule": {"baseURL": "https://payments.example", "keyFile": "\(directory.path)/missing.key"}}}
            """.utf8
        ).write(to: broken)

        let passing = try await Self.run(["--config", good.path, "--check-config"])
        #expect(passing.status == 0)
        #expect(passing.output.contains("configuration ok"))

        let failing = try await Self.run(["--config", broken.path, "--check-config"])
        #expect(failing.status == 78)
        for expected in ["port 99999", "modules.FeedModule.baseURL", "not base64", "missing.key"] {
            #expect(failing.output.contains(expected), "missing \(expected) in:\n\(failing.output)")
        }
        #expect(!failing.output.contains(key))

        let usage = try await Self.run(["--port", "eighty"])
        #expect(usage.status == 64)
    }

    static func run(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let child = try ChildProcess(DaemonProcess.executable.path, arguments: arguments, output: .merged)
        let termination = await child.waitForExit(timeout: .seconds(60))
        return (termination?.status ?? -1, child.standardOutput)
    }
}
