import FeedModule
import Foundation
import HTTPTypes
import SandboxUpstreams
import ServiceCore
import Testing

/// The feed upstream through the real `FeedClient`, signed, over both real transports.
@Suite(.timeLimit(.minutes(1)))
struct FeedUpstreamTests {
    @Test(arguments: TransportKind.allCases)
    func timelinePagesNewestFirst(_ kind: TransportKind) async throws {
        try await withSandbox(kind) { fixture in
            let feed = try fixture.feed()
            // carol follows alice and bob: her timeline holds all nine seeded posts.
            var seen: [Post] = []
            var cursor: String?
            for _ in 0..<5 {
                let page = try await feed.timeline(user: "carol", cursor: cursor, limit: 4)
                #expect(page.items.count <= 4)
                seen += page.items
                cursor = page.nextCursor
                if cursor == nil { break }
            }
            #expect(cursor == nil)
            #expect(seen.count == 9)
            #expect(Set(seen.map(\.id)).count == 9)
            #expect(seen.map(\.createdAt) == seen.map(\.createdAt).sorted(by: >))
            // alice follows bob only: her posts and bob's.
            let alice = try await feed.timeline(user: "alice")
            #expect(alice.items.count == 6)
            #expect(Set(alice.items.map(\.authorId)) == ["alice", "bob"])
            #expect(alice.nextCursor == nil)
        }
    }

    @Test func timelineErrors() async throws {
        try await withSandbox { fixture in
            let feed = try fixture.feed()
            let unknown = await expectProblem { try await feed.timeline(user: "zed") }
            #expect(unknown?.status == 404)
            #expect(unknown?.problem.code == "user_not_found")
            let cursor = try #require(try await feed.timeline(user: "carol", limit: 2).nextCursor)
            let foreign = await expectProblem { try await feed.timeline(user: "bob", cursor: cursor, limit: 2) }
            #expect(foreign?.problem.code == "invalid_cursor")
            let response = try await fixture.sendSigned(.get, "/v1/timelines/carol?limit=abc", to: .feed)
            #expect(response.status == 400)
            #expect(problem(of: response)?.code == "invalid_request")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func postAndLike(_ kind: TransportKind) async throws {
        try await withSandbox(kind) { fixture in
            let feed = try fixture.feed()
            let first = try #require(try await feed.timeline(user: "bob", limit: 1).items.first)
            #expect(try await feed.post(id: first.id) == first)
            let post = try await feed.createPost(author: "bob", text: "like me")
            #expect(post.likeCount == 0)
            try await feed.like(post: post.id, user: "alice")
            try await feed.like(post: post.id, user: "alice")  // idempotent
            try await feed.like(post: post.id, user: "carol")
            #expect(try await feed.post(id: post.id).likeCount == 2)
            let missingPost = await expectProblem { try await feed.post(id: "p999999") }
            #expect(missingPost?.problem.code == "post_not_found")
            let likeMissingPost = await expectProblem { try await feed.like(post: "p999999", user: "alice") }
            #expect(likeMissingPost?.problem.code == "post_not_found")
            let likeByUnknown = await expectProblem { try await feed.like(post: post.id, user: "zed") }
            #expect(likeByUnknown?.problem.code == "user_not_found")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func createPostAsJSON(_ kind: TransportKind) async throws {
        try await withSandbox(kind) { fixture in
            let feed = try fixture.feed()
            let created = try await feed.createPost(author: "bob", text: "Hello, \"world\" ✨\nline two")
            #expect(created.authorId == "bob")
            #expect(created.text == "Hello, \"world\" ✨\nline two")
            #expect(created.likeCount == 0)
            #expect(created.attachments.isEmpty)
            #expect(abs(created.createdAt.timeIntervalSinceNow) < 60)
            #expect(try await feed.post(id: created.id) == created)
            // Newest first in the timelines of bob and of his followers.
            #expect(try await feed.timeline(user: "alice", limit: 1).items.first == created)
            #expect(try await feed.timeline(user: "bob", limit: 1).items.first == created)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func createPostAsMultipartWithAttachments(_ kind: TransportKind) async throws {
        try await withSandbox(kind) { fixture in
            let feed = try fixture.feed()
            let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0x2D, count: 100))
            // Bytes that look like a boundary line inside a file must not end it.
            let tricky = Data("--swifty-\r\n--\r\nContent-Disposition: x\r\n\r\n".utf8)
            let created = try await feed.createPost(
                author: "carol", text: "two files",
                attachments: [
                    AttachmentUpload(fileName: "cat \"1\".png", contentType: "image/png", data: png),
                    AttachmentUpload(fileName: "notes é.txt", contentType: "text/plain", data: tricky),
                ])
            #expect(created.text == "two files")
            #expect(created.attachments.map(\.fileName) == ["cat \"1\".png", "notes é.txt"])
            #expect(created.attachments.map(\.contentType) == ["image/png", "text/plain"])
            #expect(created.attachments.map(\.byteCount) == [png.count, tricky.count])
            #expect(Set(created.attachments.map(\.id)).count == 2)
            #expect(try await feed.post(id: created.id).attachments == created.attachments)
        }
    }

    @Test func createPostErrors() async throws {
        try await withSandbox { fixture in
            let feed = try fixture.feed()
            let unknownAuthor = await expectProblem { try await feed.createPost(author: "zed", text: "hi") }
            #expect(unknownAuthor?.status == 404)
            #expect(unknownAuthor?.problem.code == "user_not_found")
            let json: HTTPHeaders = ["Content-Type": "application/json"]
            for body in [#"{"authorId":"bob","text":"   "}"#, #"{"authorId":"bob"}"#, #"{"authorId":"bob","text":7}"#] {
                let response = try await fixture.sendSigned(
                    .post, "/v1/posts", to: .feed, headers: json, body: Data(body.utf8))
                #expect(response.status == 400, "\(body)")
                #expect(problem(of: response)?.code == "invalid_request", "\(body)")
            }
            let longText = String(repeating: "é", count: 501)
            let tooLong = try await fixture.sendSigned(
                .post, "/v1/posts", to: .feed, headers: json,
                body: Data(#"{"authorId":"bob","text":"\#(longText)"}"#.utf8))
            #expect(tooLong.status == 400)
            let form = try await fixture.sendSigned(
                .post, "/v1/posts", to: .feed, headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Data("authorId=bob&text=hi".utf8))
            #expect(form.status == 415)
            #expect(problem(of: form)?.code == "unsupported_media_type")
        }
    }

    @Test func multipartErrors() async throws {
        try await withSandbox { fixture in
            let boundary = "b0undary"
            let type: HTTPHeaders = ["Content-Type": "multipart/form-data; boundary=\(boundary)"]
            func part(_ name: String, fileName: String? = nil, type: String? = nil, _ data: String) -> String {
                var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\""
                if let fileName { head += "; filename=\"\(fileName)\"" }
                head += "\r\n"
                if let type { head += "Content-Type: \(type)\r\n" }
                return head + "\r\n" + data + "\r\n"
            }
            let close = "--\(boundary)--\r\n"
            let cases: [(body: String, status: Int, code: String)] = [
                (part("authorId", "bob") + part("text", "hi") + part("extra", "x") + close, 400, "invalid_request"),
                (
                    part("authorId", "bob") + part("authorId", "bob") + part("text", "hi") + close, 400,
                    "invalid_request"
                ),
                (part("text", "hi") + close, 400, "invalid_request"),
                (part("authorId", "bob") + part("text", "hi"), 400, "invalid_request"),  // never closed
                (
                    part("authorId", "bob") + part("text", "hi") + part("attachment", "no file name") + close, 400,
                    "invalid_request"
                ),
                (
                    part("authorId", "bob") + part("text", "hi")
                        + part("attachment", fileName: "a/b", type: "text/plain", "x")
                        + close, 400, "invalid_request"
                ),
                (
                    part("authorId", "bob") + part("text", "hi")
                        + part("attachment", fileName: "a", type: "text/plain; charset=utf-8", "x") + close, 400,
                    "invalid_request"
                ),
                (
                    part("authorId", "bob") + part("text", "hi")
                        + part("attachment", fileName: "a", type: "text/plain", "")
                        + close, 400, "invalid_request"
                ),
                (part("authorId", "zed") + part("text", "hi") + close, 404, "user_not_found"),
                (part("text", "hi") + part("authorId", "bob") + close, 201, ""),  // any order
                ("preamble\r\n" + part("authorId", "bob") + part("text", "hi") + close + "epilogue", 201, ""),
            ]
            for (index, item) in cases.enumerated() {
                let response = try await fixture.sendSigned(
                    .post, "/v1/posts", to: .feed, headers: type, body: Data(item.body.utf8))
                #expect(response.status == item.status, "case \(index)")
                if !item.code.isEmpty { #expect(problem(of: response)?.code == item.code, "case \(index)") }
            }
            let five = String(repeating: part("attachment", fileName: "f", type: "text/plain", "x"), count: 5)
            let tooMany = try await fixture.sendSigned(
                .post, "/v1/posts", to: .feed, headers: type,
                body: Data((part("authorId", "bob") + part("text", "hi") + five + close).utf8))
            #expect(tooMany.status == 400)
            let noBoundary = try await fixture.sendSigned(
                .post, "/v1/posts", to: .feed, headers: ["Content-Type": "multipart/form-data"],
                body: Data((part("authorId", "bob") + close).utf8))
            #expect(noBoundary.status == 400)
        }
    }

    @Test func oversizedAttachmentIs413() async throws {
        try await withSandbox { fixture in
            let feed = try fixture.feed()
            // The module refuses more than 5 MiB before sending, so send it raw.
            let boundary = "big-boundary"
            var body = Data(
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"authorId\"\r\n\r\nbob\r\n--\(boundary)\r\n"
                    .utf8)
            body += Data("Content-Disposition: form-data; name=\"text\"\r\n\r\nbig\r\n--\(boundary)\r\n".utf8)
            body += Data(
                "Content-Disposition: form-data; name=\"attachment\"; filename=\"big.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n"
                    .utf8)
            body += Data(repeating: 0x41, count: 5 * 1024 * 1024 + 1)
            body += Data("\r\n--\(boundary)--\r\n".utf8)
            let response = try await fixture.sendSigned(
                .post, "/v1/posts", to: .feed, headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"],
                body: body)
            #expect(response.status == 413)
            #expect(problem(of: response)?.code == "attachment_too_large")
            // Exactly 5 MiB is accepted, through the module.
            let created = try await feed.createPost(
                author: "bob", text: "big",
                attachments: [
                    AttachmentUpload(
                        fileName: "five.bin", contentType: "application/octet-stream",
                        data: Data(repeating: 0x42, count: 5 * 1024 * 1024))
                ])
            #expect(created.attachments.first?.byteCount == 5 * 1024 * 1024)
        }
    }
}
