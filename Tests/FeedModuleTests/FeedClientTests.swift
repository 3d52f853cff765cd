import FeedModule
import Foundation
import ServiceCore
import ServiceTesting
import Testing

/// The typed client: answers decoded from sample bodies, error envelopes from non-2xx answers,
/// and bad input refused before anything reaches the transport.
struct FeedClientTests {
    static let base = "https://feed.api.example.com"
    static let postJSON = """
        {"id":"p1","authorId":"alice","text":"Hello","createdAt":"2026-03-01T12:00:00Z","likeCount":3,
         "attachments":[{"id":"a1","fileName":"cat.png","contentType":"image/png","byteCount":8}]}
        """
    static let post = Post(
        id: "p1",
        authorId: "alice",
        text: "Hello",
        createdAt: Date(timeIntervalSince1970: 1_772_366_400),
        likeCount: 3,
        attachments: [Attachment(id: "a1", fileName: "cat.png", contentType: "image/png", byteCount: 8)]
    )

    static func client(_ transport: MockTransport) throws -> FeedClient {
        try FeedClient(domain: .init(environment: .production), transport: transport)
    }

    // MARK: - Answers

    @Test
    func postDecodes() async throws {
        let transport = MockTransport().on(
            .method(.get, path: "/v1/posts/p1"), .json(200, Self.postJSON), afterwards: .fail)
        #expect(try await Self.client(transport).post(id: "p1") == Self.post)
        #expect(transport.exchanges.map(\.module) == ["FeedModule"])
        #expect(transport.requests.map(\.url.absoluteString) == ["\(Self.base)/v1/posts/p1"])
    }

    @Test
    func postWithoutAttachmentsMemberDecodes() async throws {
        let transport = MockTransport.always(
            .json(200, #"{"id":"p2","authorId":"bob","text":"x","createdAt":"2026-03-01T12:00:00.5Z","likeCount":0}"#))
        let post = try await Self.client(transport).post(id: "p2")
        #expect(post.attachments.isEmpty)
        #expect(post.createdAt.timeIntervalSince1970.rounded(.down) == 1_772_366_400)
    }

    @Test
    func timelineDecodes() async throws {
        let transport = MockTransport.always(.json(200, #"{"items":[\#(Self.postJSON)],"nextCursor":"older-1"}"#))
        let page = try await Self.client(transport).timeline(user: "alice", cursor: "c0", limit: 1)
        #expect(page == TimelinePage(items: [Self.post], nextCursor: "older-1"))
        #expect(transport.requests.first?.url.query == "cursor=c0&limit=1")
    }

    @Test
    func createPostAnswersTheStoredPost() async throws {
        let transport = MockTransport.always(.json(201, Self.postJSON))
        let post = try await Self.client(transport).createPost(author: "alice", text: "Hello")
        #expect(post == Self.post)
        let request = try #require(transport.requests.first)
        #expect(request.method == .post)
        #expect(request.headers["Content-Type"] == "application/json")
    }

    @Test
    func likeAcceptsNoContent() async throws {
        let transport = MockTransport.always(.status(204))
        try await Self.client(transport).like(post: "p1", user: "bob")
        #expect(transport.requests.map(\.url.absoluteString) == ["\(Self.base)/v1/posts/p1/likes/bob"])
    }

    @Test
    func postRoundTripsThroughJSON() throws {
        let data = try JSONEncoder().encode(Self.post)
        #expect(try JSONDecoder().decode(Post.self, from: data) == Self.post)
        #expect(String(decoding: data, as: UTF8.self).contains(#""createdAt":"2026-03-01T12:00:00Z""#))
    }

    // MARK: - Error envelopes

    @Test
    func tooLargeCarriesTheProblem() async throws {
        let transport = MockTransport.always(
            .problem(
                413,
                #"{"type":"about:blank","title":"Content Too Large","status":413,"detail":"at most 5 MiB per file","code":"attachment_too_large"}"#
            ))
        let error = try await #require(throws: ServiceError.self) {
            try await Self.client(transport).createPost(
                author: "alice",
                text: "x",
                attachments: [
                    AttachmentUpload(fileName: "a.bin", contentType: "application/octet-stream", data: Data([1]))
                ]
            )
        }
        #expect(error.code == .unacceptableStatus)
        #expect(error.module == "FeedModule")
        #expect(error.operation == "createPost")
        #expect(error.response?.status == 413)
        #expect(
            error.envelope(as: FeedErrorEnvelope.self)
                == FeedErrorEnvelope(
                    title: "Content Too Large",
                    status: 413,
                    detail: "at most 5 MiB per file",
                    code: "attachment_too_large"
                )
        )
    }

    @Test
    func badTimestampIsADecodingError() async throws {
        let transport = MockTransport.always(
            .json(200, #"{"id":"p","authorId":"a","text":"x","createdAt":1772366400,"likeCount":0}"#))
        let error = try await #require(throws: ServiceError.self) { try await Self.client(transport).post(id: "p") }
        #expect(error.code == .decoding)
    }

    // MARK: - Input validation

    static func upload(
        _ fileName: String = "a.png",
        _ contentType: String = "image/png",
        bytes: Int = 1
    ) -> AttachmentUpload {
        AttachmentUpload(fileName: fileName, contentType: contentType, data: Data(count: bytes))
    }

    static let invalidCalls: [(String, @Sendable (FeedClient) async throws -> Void)] = [
        ("user must not be empty", { _ = try await $0.timeline(user: "") }),
        ("limit must be between 1 and 100, got 0", { _ = try await $0.timeline(user: "a", limit: 0) }),
        ("limit must be between 1 and 100, got 101", { _ = try await $0.timeline(user: "a", limit: 101) }),
        ("cursor must not be empty", { _ = try await $0.timeline(user: "a", cursor: "") }),
        ("id must not be empty", { _ = try await $0.post(id: "") }),
        ("id must not contain control characters", { _ = try await $0.post(id: "p\t1") }),
        ("post must not be \".\" or \"..\"", { try await $0.like(post: "..", user: "bob") }),
        ("user must not be empty", { try await $0.like(post: "p1", user: "") }),
        ("author must not be empty", { _ = try await $0.createPost(author: "", text: "hi") }),
        ("text must not be empty", { _ = try await $0.createPost(author: "a", text: "") }),
        ("text must not be empty", { _ = try await $0.createPost(author: "a", text: " \n\t ") }),
        (
            "text must be at most 500 characters, got 501",
            { _ = try await $0.createPost(author: "a", text: String(repeating: "é", count: 501)) }
        ),
        (
            "text must not contain control characters other than line breaks and tabs",
            { _ = try await $0.createPost(author: "a", text: "bell\u{7}") }
        ),
        (
            "attachments must be at most 4, got 5",
            { _ = try await $0.createPost(author: "a", text: "t", attachments: Array(repeating: upload(), count: 5)) }
        ),
        (
            "attachments[1].fileName must not be empty",
            { _ = try await $0.createPost(author: "a", text: "t", attachments: [upload(), upload("")]) }
        ),
        (
            "attachments[0].fileName must not contain control characters, \"/\" or \"\\\"",
            { _ = try await $0.createPost(author: "a", text: "t", attachments: [upload("../etc/passwd")]) }
        ),
        (
            "attachments[0].fileName must not contain control characters, \"/\" or \"\\\"",
            { _ = try await $0.createPost(author: "a", text: "t", attachments: [upload("a\r\nb.png")]) }
        ),
        (
            "attachments[0].fileName must be at most 255 bytes of UTF-8",
            {
                _ = try await $0.createPost(
                    author: "a", text: "t", attachments: [upload(String(repeating: "n", count: 256))])
            }
        ),
        (
            "attachments[0].contentType must be a media type such as image/png",
            { _ = try await $0.createPost(author: "a", text: "t", attachments: [upload("a.png", "image")]) }
        ),
        (
            "attachments[0].contentType must be a media type such as image/png",
            { _ = try await $0.createPost(author: "a", text: "t", attachments: [upload("a.png", "image/png\r\nX: y")]) }
        ),
        (
            "attachments[0].data must not be empty",
            { _ = try await $0.createPost(author: "a", text: "t", attachments: [upload(bytes: 0)]) }
        ),
        (
            "attachments[0].data must be at most 5242880 bytes, got 5242881",
            { _ = try await $0.createPost(author: "a", text: "t", attachments: [upload(bytes: 5 * 1024 * 1024 + 1)]) }
        ),
    ]

    @Test(arguments: invalidCalls)
    func badInputIsRefusedBeforeSending(_ message: String, _ call: @Sendable (FeedClient) async throws -> Void)
        async throws
    {
        let transport = MockTransport.always(.json(200, Self.postJSON))
        let client = try Self.client(transport)
        let error = try await #require(throws: ServiceError.self) { try await call(client) }
        #expect(error.code == .invalidRequest)
        #expect(error.module == "FeedModule")
        #expect(error.message == message)
        #expect(transport.requests.isEmpty)
    }

    @Test
    func boundaryInputsAreAccepted() throws {
        try FeedService.createPost(author: "a", text: String(repeating: "é", count: 500), attachments: []).validate()
        try FeedService.createPost(author: "a", text: "line 1\r\nline 2\tend", attachments: []).validate()
        try FeedService.createPost(
            author: "a",
            text: "t",
            attachments: Array(repeating: Self.upload("ü.png", "image/png", bytes: 5 * 1024 * 1024), count: 4)
        )
        .validate()
        try FeedService.createPost(
            author: "a",
            text: "t",
            attachments: [Self.upload(String(repeating: "n", count: 255), "application/vnd.api+json")]
        )
        .validate()
    }
}
