import FeedModule
import Foundation
import HTTPTypes
import SandboxUpstreams
import ServiceCore
import Testing
import UserModule

/// The sandbox's OAuth 2.0 token endpoint (client credentials grant) and an upstream that
/// requires its tokens.
@Suite(.timeLimit(.minutes(1)))
struct TokenEndpointTests {
    static let clientID = "swiftyd test"
    static let secret = "s3cret:with+symbols"

    static func configuration(required: Set<SandboxService> = []) -> SandboxUpstreams.Configuration {
        var configuration = SandboxFixture.quietConfiguration()
        configuration.tokenClients = [clientID: secret]
        configuration.accessTokenLifetime = .seconds(90)
        configuration.accessTokenRequired = required
        return configuration
    }

    /// `id:secret`, each form-encoded, in base64 (RFC 6749 §2.3.1).
    static func basic(_ id: String, _ secret: String) -> String {
        func encode(_ text: String) -> String {
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._~")
            return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
        }
        return "Basic " + Data("\(encode(id)):\(encode(secret))".utf8).base64EncodedString()
    }

    static func tokenRequest(
        _ fixture: SandboxFixture,
        authorization: String? = basic(clientID, secret),
        contentType: String = "application/x-www-form-urlencoded",
        form: String = "grant_type=client_credentials"
    ) async throws -> (status: Int, headers: HTTPHeaders, json: [String: Any]) {
        var headers: HTTPHeaders = ["Content-Type": contentType]
        if let authorization { headers.add(name: "Authorization", value: authorization) }
        let request = HTTPRequest(
            method: .post, url: try #require(URL(string: fixture.sandbox.tokenURLString)), headers: headers,
            body: Data(form.utf8), timeout: .seconds(10))
        let response = try await fixture.transport.send(request)
        let json = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
        return (response.status, response.headers, json)
    }

    @Test func issuesABearerTokenToARegisteredClient() async throws {
        try await withSandbox(configuration: Self.configuration()) { fixture in
            let answer = try await Self.tokenRequest(fixture)
            #expect(answer.status == 200)
            #expect((answer.json["access_token"] as? String)?.isEmpty == false)
            #expect(answer.json["token_type"] as? String == "Bearer")
            #expect(answer.json["expires_in"] as? Int == 90)
            #expect(answer.headers["Cache-Control"] == "no-store")
            let second = try await Self.tokenRequest(fixture, form: "scope=feed&grant_type=client_credentials")
            #expect(second.status == 200)
            #expect(second.json["access_token"] as? String != answer.json["access_token"] as? String)
            #expect(fixture.sandbox.tokenCounts == TokenEndpointCounts(requests: 2, issued: 2, rejected: 0))
        }
    }

    @Test func refusalsFollowRFC6749() async throws {
        try await withSandbox(configuration: Self.configuration()) { fixture in
            let cases: [(String?, String, String, Int, String)] = [
                (nil, "application/x-www-form-urlencoded", "grant_type=client_credentials", 401, "invalid_client"),
                (
                    Self.basic(Self.clientID, "wrong"), "application/x-www-form-urlencoded",
                    "grant_type=client_credentials", 401, "invalid_client"
                ),
                (
                    Self.basic("nobody", Self.secret), "application/x-www-form-urlencoded",
                    "grant_type=client_credentials", 401, "invalid_client"
                ),
                (
                    "Basic !!!", "application/x-www-form-urlencoded", "grant_type=client_credentials", 401,
                    "invalid_client"
                ),
                (Self.basic(Self.clientID, Self.secret), "application/json", "{}", 400, "invalid_request"),
                (
                    Self.basic(Self.clientID, Self.secret), "application/x-www-form-urlencoded", "scope=x", 400,
                    "invalid_request"
                ),
                (
                    Self.basic(Self.clientID, Self.secret), "application/x-www-form-urlencoded",
                    "grant_type=password&username=a", 400, "unsupported_grant_type"
                ),
                (
                    Self.basic(Self.clientID, Self.secret), "application/x-www-form-urlencoded",
                    "grant_type=client_credentials&grant_type=client_credentials", 400, "invalid_request"
                ),
            ]
            for (authorization, contentType, form, status, error) in cases {
                let answer = try await Self.tokenRequest(
                    fixture, authorization: authorization, contentType: contentType, form: form)
                #expect(answer.status == status, "\(form)")
                #expect(answer.json["error"] as? String == error, "\(form)")
                #expect(answer.json["access_token"] == nil)
                if status == 401 { #expect(answer.headers["WWW-Authenticate"]?.hasPrefix("Basic") == true) }
            }
            #expect(fixture.sandbox.tokenCounts.issued == 0)
            #expect(fixture.sandbox.tokenCounts.requests == cases.count)
        }
    }

    @Test func anUpstreamRequiringTokensRefusesRequestsWithoutAValidOne() async throws {
        try await withSandbox(configuration: Self.configuration(required: [.feed])) { fixture in
            // Signed but without a token.
            let refused = try await fixture.sendSigned(.get, "/v1/posts/p000001", to: .feed)
            #expect(refused.status == 401)
            #expect(problem(of: refused)?.code == "invalid_token")
            #expect(refused.headers["WWW-Authenticate"]?.contains("error=\"invalid_token\"") == true)
            let token = try #require(try await Self.tokenRequest(fixture).json["access_token"] as? String)
            let accepted = try await fixture.sendSigned(
                .get, "/v1/posts/p000001", to: .feed, headers: ["Authorization": "Bearer \(token)"])
            #expect(accepted.status == 200)
            let unknown = try await fixture.sendSigned(
                .get, "/v1/posts/p000001", to: .feed, headers: ["Authorization": "Bearer sbx_not-issued"])
            #expect(unknown.status == 401)
            // Other upstreams need none.
            _ = try await fixture.users().profile(id: "alice")
            // Revoked tokens are refused.
            fixture.sandbox.revokeAccessTokens()
            let revoked = try await fixture.sendSigned(
                .get, "/v1/posts/p000001", to: .feed, headers: ["Authorization": "Bearer \(token)"])
            #expect(revoked.status == 401)
            #expect(fixture.sandbox.tokenCounts.rejected == 3)
            // Turned off at run time.
            fixture.sandbox.setAccessTokenRequired(false, for: .feed)
            #expect(try await fixture.sendSigned(.get, "/v1/posts/p000001", to: .feed).status == 200)
        }
    }

    @Test func aTokenIsRefusedOnceItExpires() async throws {
        try await withSandbox(configuration: Self.configuration(required: [.feed])) { fixture in
            try fixture.sandbox.setAccessTokenLifetime(.milliseconds(300))
            let answer = try await Self.tokenRequest(fixture)
            #expect(answer.json["expires_in"] as? Int == 1, "rounded up to whole seconds")
            let token = try #require(answer.json["access_token"] as? String)
            try await Task.sleep(for: .milliseconds(600))
            let expired = try await fixture.sendSigned(
                .get, "/v1/posts/p000001", to: .feed, headers: ["Authorization": "Bearer \(token)"])
            #expect(expired.status == 401)
            #expect(throws: SandboxError.self) { try fixture.sandbox.setAccessTokenLifetime(.zero) }
        }
    }

    /// ServiceCore's client credentials source and refresh middleware against the endpoint: one
    /// token for many calls, renewed once after a revocation.
    @Test func theRefreshMiddlewareGetsAndRenewsTokens() async throws {
        try await withSandbox(configuration: Self.configuration(required: [.feed])) { fixture in
            let source = ClientCredentialsSource(
                tokenURL: try #require(URL(string: fixture.sandbox.tokenURLString)), clientID: Self.clientID,
                clientSecret: Self.secret, transport: fixture.transport)
            let credential = try await source.fetchCredential()
            #expect(credential.lifetime == .seconds(90))
            let refresh = CredentialRefreshMiddleware(source: source, renewBefore: .seconds(5))
            let feed = try fixture.feed(try fixture.middlewares(for: .feed, before: [refresh]))
            for _ in 0..<5 { _ = try await feed.post(id: "p000001") }
            #expect(fixture.sandbox.tokenCounts.issued == 2)
            fixture.sandbox.revokeAccessTokens()
            _ = try await feed.post(id: "p000001")
            #expect(fixture.sandbox.tokenCounts.issued == 3)
            // A broken token endpoint fails the call clearly.
            try fixture.sandbox.setTokenEndpointFaults(FaultSettings(errorRate: 1))
            fixture.sandbox.revokeAccessTokens()
            await #expect {
                _ = try await feed.post(id: "p000001")
            } throws: { error in
                (error as? ServiceError)?.code == .credentialRefreshFailed
            }
            #expect(fixture.sandbox.tokenCounts.issued == 3)
        }
    }
}
