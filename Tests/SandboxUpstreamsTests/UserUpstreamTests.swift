import Foundation
import HTTPTypes
import SandboxUpstreams
import ServiceCore
import Testing
import UserModule

/// The user upstream through the real `UserClient`, signed, over both real transports.
@Suite(.timeLimit(.minutes(1)))
struct UserUpstreamTests {
    @Test(arguments: TransportKind.allCases)
    func profileOfSeededUsers(_ kind: TransportKind) async throws {
        try await withSandbox(kind) { fixture in
            let users = try fixture.users()
            let alice = try await users.profile(id: "alice")
            #expect(alice == User(id: "alice", displayName: "Alice Liddell", followerCount: 2, followingCount: 1))
            let carol = try await users.profile(id: "carol")
            #expect(carol.followerCount == 0 && carol.followingCount == 2)
        }
    }

    @Test func unknownUserIsNotFoundAndIdsRouteOnTheRawPath() async throws {
        try await withSandbox { fixture in
            let users = try fixture.users()
            let missing = await expectProblem { try await users.profile(id: "zed") }
            #expect(missing?.status == 404)
            #expect(missing?.problem.code == "user_not_found")
            #expect(missing?.problem.type == "https://errors.example.com/problems/user-not-found")
            // `/` and `?` inside an id are part of the one segment, never a separator.
            let odd = await expectProblem { try await users.profile(id: "a/b?c#d é") }
            #expect(odd?.status == 404)
            #expect(odd?.problem.detail?.contains("a/b?c#d é") == true)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func followAndUnfollowChangeCounts(_ kind: TransportKind) async throws {
        try await withSandbox(kind) { fixture in
            let users = try fixture.users()
            try await users.follow(target: "carol", actor: "alice")
            try await users.follow(target: "carol", actor: "alice")  // again: no change
            #expect(try await users.profile(id: "carol").followerCount == 1)
            #expect(try await users.profile(id: "alice").followingCount == 2)
            try await users.unfollow(target: "carol", actor: "alice")
            try await users.unfollow(target: "carol", actor: "alice")  // again: still 204
            #expect(try await users.profile(id: "carol").followerCount == 0)
        }
    }

    @Test func followErrors() async throws {
        try await withSandbox { fixture in
            let users = try fixture.users()
            let selfFollow = await expectProblem { try await users.follow(target: "bob", actor: "bob") }
            #expect(selfFollow?.status == 422)
            #expect(selfFollow?.problem.code == "cannot_follow_self")
            let unknownTarget = await expectProblem { try await users.follow(target: "zed", actor: "bob") }
            #expect(unknownTarget?.status == 404)
            #expect(unknownTarget?.problem.code == "user_not_found")
            #expect(unknownTarget?.problem.detail?.contains("target") == true)
            let unknownActor = await expectProblem { try await users.unfollow(target: "bob", actor: "zed") }
            #expect(unknownActor?.problem.detail?.contains("actor") == true)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func followersPageMostRecentFirst(_ kind: TransportKind) async throws {
        try await withSandbox(kind) { fixture in
            let users = try fixture.users()
            // alice is followed by bob, then carol (seeded): pages of one.
            let first = try await users.followers(id: "alice", limit: 1)
            #expect(first.items == [UserSummary(id: "carol", displayName: "Carol Jenkins")])
            let cursor = try #require(first.nextCursor)
            let second = try await users.followers(id: "alice", cursor: cursor, limit: 1)
            #expect(second.items.map(\.id) == ["bob"])
            #expect(second.nextCursor == nil)
            // A follow made after the first page does not move the second page's boundary.
            try await users.unfollow(target: "alice", actor: "carol")
            try await users.follow(target: "alice", actor: "carol")
            let again = try await users.followers(id: "alice", cursor: cursor, limit: 1)
            #expect(again.items.map(\.id) == ["bob"])
            let all = try await users.followers(id: "alice")
            #expect(all.items.map(\.id) == ["carol", "bob"])
            #expect(all.nextCursor == nil)
        }
    }

    @Test func followersErrors() async throws {
        try await withSandbox { fixture in
            let users = try fixture.users()
            let foreign = try #require(try await users.followers(id: "alice", limit: 1).nextCursor)
            let wrongList = await expectProblem { try await users.followers(id: "bob", cursor: foreign, limit: 1) }
            #expect(wrongList?.status == 400)
            #expect(wrongList?.problem.code == "invalid_cursor")
            let forged = await expectProblem { try await users.followers(id: "alice", cursor: "not-ours", limit: 5) }
            #expect(forged?.problem.code == "invalid_cursor")
            let unknown = await expectProblem { try await users.followers(id: "zed") }
            #expect(unknown?.problem.code == "user_not_found")
            // A limit the module would refuse, sent raw.
            let response = try await fixture.sendSigned(.get, "/v1/users/alice/followers?limit=0", to: .user)
            #expect(response.status == 400)
            #expect(problem(of: response)?.code == "invalid_request")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func introspectValidAndInvalidTokens(_ kind: TransportKind) async throws {
        try await withSandbox(kind) { fixture in
            let users = try fixture.users()
            for user in ["alice", "bob", "carol"] {
                let session = try await users.introspect(token: "sandbox-\(user)")
                #expect(session.active)
                #expect(session.userId == user)
                let expiresAt = try #require(session.expiresAt)
                #expect(expiresAt > Date().addingTimeInterval(23 * 3600))
            }
            let unknown = try await users.introspect(token: "sandbox-mallory")
            #expect(unknown == TokenIntrospection(active: false))
        }
    }

    @Test func introspectRefusesBadBodies() async throws {
        try await withSandbox { fixture in
            let json: HTTPHeaders = ["Content-Type": "application/json"]
            for body in [#"{"token":""}"#, #"{"token":5}"#, #"{}"#, #"["sandbox-alice"]"#, #"{"token":"a""#] {
                let response = try await fixture.sendSigned(
                    .post, "/v1/sessions/introspect", to: .user, headers: json, body: Data(body.utf8))
                #expect(response.status == 400, "\(body)")
                #expect(problem(of: response)?.code == "invalid_request", "\(body)")
                // The token is a secret: never echoed.
                #expect(!String(decoding: response.body, as: UTF8.self).contains("sandbox-alice"))
            }
            let text = try await fixture.sendSigned(
                .post, "/v1/sessions/introspect", to: .user, headers: ["Content-Type": "text/plain"],
                body: Data("sandbox-alice".utf8))
            #expect(text.status == 415)
            #expect(problem(of: text)?.code == "unsupported_media_type")
            let large = try await fixture.sendSigned(
                .post, "/v1/sessions/introspect", to: .user, headers: json,
                body: Data((#"{"token":""# + String(repeating: "x", count: 70_000) + #""}"#).utf8))
            #expect(large.status == 413)
            #expect(problem(of: large)?.code == "body_too_large")
        }
    }

    @Test func unknownPathsAndMethodsHaveProblemCodes() async throws {
        try await withSandbox { fixture in
            let missing = try await fixture.sendSigned(.get, "/v1/nothing", to: .user)
            #expect(missing.status == 404)
            #expect(problem(of: missing)?.code == "not_found")
            let wrongMethod = try await fixture.sendSigned(.post, "/v1/users/alice", to: .user)
            #expect(wrongMethod.status == 405)
            #expect(problem(of: wrongMethod)?.code == "method_not_allowed")
            #expect(wrongMethod.headers["Allow"]?.contains("GET") == true)
            let dotDot = try await fixture.sendSigned(.get, "/v1/users/%2E%2E", to: .user)
            #expect(dotDot.status == 400)
            #expect(problem(of: dotDot)?.code == "invalid_request")
            let notUTF8 = try await fixture.sendSigned(.get, "/v1/users/%FF", to: .user)
            #expect(notUTF8.status == 400)
            #expect(problem(of: notUTF8)?.code == "invalid_request")
        }
    }

    @Test func requestIDIsEchoed() async throws {
        try await withSandbox { fixture in
            let response = try await fixture.sendSigned(
                .get, "/v1/users/bob", to: .user, headers: ["X-Request-ID": "0123456789abcdef"])
            #expect(response.status == 200)
            #expect(response.headers["X-Request-ID"] == "0123456789abcdef")
        }
    }
}
