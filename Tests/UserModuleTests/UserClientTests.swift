import Foundation
import ServiceCore
import ServiceTesting
import Testing
import UserModule

/// The typed client: answers decoded from sample bodies, error envelopes from non-2xx answers,
/// and bad input refused before anything reaches the transport.
struct UserClientTests {
    static let base = "https://users.api.example.com"

    static func client(_ transport: MockTransport) throws -> UserClient {
        try UserClient(domain: .init(environment: .production), transport: transport)
    }

    // MARK: - Answers

    @Test
    func profileDecodes() async throws {
        let transport = MockTransport().on(
            .operation("profile", module: "UserModule"),
            .json(200, #"{"id":"alice","displayName":"Alice Liddell","followerCount":2,"followingCount":1}"#),
            afterwards: .fail
        )
        let user = try await Self.client(transport).profile(id: "alice")
        #expect(user == User(id: "alice", displayName: "Alice Liddell", followerCount: 2, followingCount: 1))
        #expect(transport.requests.map(\.url.absoluteString) == ["\(Self.base)/v1/users/alice"])
        #expect(transport.exchanges.map(\.operation) == ["profile"])
    }

    @Test
    func followAndUnfollowAcceptNoContent() async throws {
        let transport = MockTransport().on(.any, .noContent, .noContent, afterwards: .fail)
        let client = try Self.client(transport)
        try await client.follow(target: "bob", actor: "alice")
        try await client.unfollow(target: "bob", actor: "alice")
        #expect(transport.requests.map(\.method) == [.put, .delete])
    }

    @Test
    func followersPageDecodes() async throws {
        let transport = MockTransport.always(
            .json(
                200,
                """
                {"items":[{"id":"bob","displayName":"Bob"},{"id":"carol","displayName":"Carol"}],
                 "nextCursor":"b2Zmc2V0PTI"}
                """))
        let page = try await Self.client(transport).followers(id: "alice", limit: 2)
        #expect(
            page
                == FollowersPage(
                    items: [
                        UserSummary(id: "bob", displayName: "Bob"), UserSummary(id: "carol", displayName: "Carol"),
                    ],
                    nextCursor: "b2Zmc2V0PTI"
                )
        )
        #expect(transport.requests.first?.url.query == "limit=2")
    }

    @Test(arguments: [#"{"items":[],"nextCursor":null}"#, #"{"items":[]}"#])
    func lastPageHasNoCursor(_ body: String) async throws {
        let page = try await Self.client(.always(.json(200, body))).followers(id: "alice", cursor: "x")
        #expect(page == FollowersPage(items: [], nextCursor: nil))
    }

    @Test
    func activeIntrospectionDecodes() async throws {
        let transport = MockTransport.always(
            .json(200, #"{"active":true,"userId":"alice","expiresAt":"2026-03-01T12:00:00Z"}"#))
        let answer = try await Self.client(transport).introspect(token: "sandbox-alice")
        #expect(answer.active)
        #expect(answer.userId == "alice")
        #expect(answer.expiresAt == Date(timeIntervalSince1970: 1_772_366_400))
    }

    @Test(arguments: [#"{"active":false}"#, #"{"active":false,"userId":null,"expiresAt":null}"#])
    func inactiveIntrospectionDecodes(_ body: String) async throws {
        let answer = try await Self.client(.always(.json(200, body))).introspect(token: "expired")
        #expect(answer == TokenIntrospection(active: false))
    }

    @Test
    func introspectionRoundTripsItsTimestamp() throws {
        let value = TokenIntrospection(
            active: true, userId: "bob", expiresAt: Date(timeIntervalSince1970: 1_772_366_400))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(value), as: UTF8.self)
        #expect(text == #"{"active":true,"expiresAt":"2026-03-01T12:00:00Z","userId":"bob"}"#)
        #expect(try JSONDecoder().decode(TokenIntrospection.self, from: Data(text.utf8)) == value)
    }

    @Test
    func badTimestampIsADecodingError() async throws {
        let transport = MockTransport.always(.json(200, #"{"active":true,"userId":"a","expiresAt":"tomorrow"}"#))
        let error = try await #require(throws: ServiceError.self) {
            try await Self.client(transport).introspect(token: "t")
        }
        #expect(error.code == .decoding)
        #expect(error.message.contains("expiresAt"))
    }

    @Test
    func wrongShapeIsADecodingError() async throws {
        let transport = MockTransport.always(.json(200, #"{"id":"alice"}"#))
        let error = try await #require(throws: ServiceError.self) {
            try await Self.client(transport).profile(id: "alice")
        }
        #expect(error.code == .decoding)
        #expect(error.module == "UserModule")
        #expect(error.operation == "profile")
    }

    // MARK: - Error envelopes

    @Test
    func notFoundCarriesTheProblem() async throws {
        let transport = MockTransport.always(
            .problem(
                404,
                """
                {"type":"https://errors.example.com/user-not-found","title":"User not found","status":404,
                 "detail":"no user has the id \\"zed\\"","code":"user_not_found"}
                """))
        let error = try await #require(throws: ServiceError.self) {
            try await Self.client(transport).profile(id: "zed")
        }
        #expect(error.code == .unacceptableStatus)
        #expect(error.module == "UserModule")
        #expect(error.operation == "profile")
        #expect(error.response?.status == 404)
        #expect(error.request?.url.absoluteString == "\(Self.base)/v1/users/zed")
        let envelope = try #require(error.envelope(as: UserErrorEnvelope.self))
        #expect(
            envelope
                == UserErrorEnvelope(
                    type: "https://errors.example.com/user-not-found",
                    title: "User not found",
                    status: 404,
                    detail: #"no user has the id "zed""#,
                    code: "user_not_found"
                )
        )
        #expect(error.description.contains("404 user_not_found"))
    }

    @Test
    func partialProblemStillDecodes() async throws {
        let transport = MockTransport.always(.json(401, #"{"title":"Unauthorized","status":401}"#))
        let error = try await #require(throws: ServiceError.self) {
            try await Self.client(transport).follow(target: "bob", actor: "alice")
        }
        let envelope = try #require(error.envelope(as: UserErrorEnvelope.self))
        #expect(envelope == UserErrorEnvelope(type: "about:blank", title: "Unauthorized", status: 401))
    }

    @Test
    func nonJSONErrorBodyHasNoEnvelope() async throws {
        let transport = MockTransport.always(
            .data(502, Data("<h1>Bad gateway</h1>".utf8), contentType: "text/html")
        )
        let error = try await #require(throws: ServiceError.self) {
            try await Self.client(transport).profile(id: "alice")
        }
        #expect(error.code == .unacceptableStatus)
        #expect(error.response?.status == 502)
        #expect(error.envelope(as: UserErrorEnvelope.self) == nil)
    }

    // MARK: - Input validation

    static let invalidCalls: [(String, @Sendable (UserClient) async throws -> Void)] = [
        ("id must not be empty", { _ = try await $0.profile(id: "") }),
        ("id must not contain control characters", { _ = try await $0.profile(id: "a\u{0}b") }),
        ("id must not contain control characters", { _ = try await $0.profile(id: "a\nb") }),
        ("id must not contain control characters", { _ = try await $0.profile(id: "a\u{85}b") }),
        ("id must not be \".\" or \"..\"", { _ = try await $0.profile(id: "..") }),
        ("id must not be \".\" or \"..\"", { _ = try await $0.profile(id: ".") }),
        ("id must be at most 128 bytes of UTF-8", { _ = try await $0.profile(id: String(repeating: "é", count: 65)) }),
        ("target must not be empty", { try await $0.follow(target: "", actor: "alice") }),
        ("actor must not be empty", { try await $0.follow(target: "bob", actor: "") }),
        ("actor must not contain control characters", { try await $0.unfollow(target: "bob", actor: "al\rice") }),
        ("limit must be between 1 and 100, got 0", { _ = try await $0.followers(id: "alice", limit: 0) }),
        ("limit must be between 1 and 100, got 101", { _ = try await $0.followers(id: "alice", limit: 101) }),
        ("limit must be between 1 and 100, got -5", { _ = try await $0.followers(id: "alice", limit: -5) }),
        ("cursor must not be empty", { _ = try await $0.followers(id: "alice", cursor: "") }),
        ("cursor must not contain control characters", { _ = try await $0.followers(id: "a", cursor: "x\u{7F}") }),
        ("token must not be empty", { _ = try await $0.introspect(token: "") }),
        ("token must not contain control characters", { _ = try await $0.introspect(token: "abc\r\nX-Evil: 1") }),
        (
            "token must be at most 4096 bytes",
            { _ = try await $0.introspect(token: String(repeating: "t", count: 4097)) }
        ),
    ]

    @Test(arguments: invalidCalls)
    func badInputIsRefusedBeforeSending(_ message: String, _ call: @Sendable (UserClient) async throws -> Void)
        async throws
    {
        let transport = MockTransport.always(.json(200, "{}"))
        let client = try Self.client(transport)
        let error = try await #require(throws: ServiceError.self) { try await call(client) }
        #expect(error.code == .invalidRequest)
        #expect(error.module == "UserModule")
        #expect(error.message.hasPrefix(message))
        #expect(transport.requests.isEmpty)
    }

    @Test
    func validationMessagesNeverEchoTheValue() throws {
        let error = try #require(throws: ServiceError.self) {
            try UserService.introspect(token: "secret\u{1}").validate()
        }
        #expect(!error.description.contains("secret"))
    }

    @Test
    func boundaryInputsAreAccepted() throws {
        try UserService.profile(id: String(repeating: "é", count: 64)).validate()
        try UserService.profile(id: "a/b?c#d é").validate()
        try UserService.profile(id: "...").validate()
        try UserService.followers(id: "a", cursor: nil, limit: 1).validate()
        try UserService.followers(id: "a", cursor: String(repeating: "c", count: 512), limit: 100).validate()
        try UserService.introspect(token: String(repeating: "t", count: 4096)).validate()
    }
}
