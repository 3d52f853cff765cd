import FeedModule
import Foundation
import ServiceCore
import ServiceTesting
import Testing

/// The exact request of every case: method, URL with query, header fields in order, body bytes.
///
/// JSON bodies are compared byte for byte (the module encodes them with sorted keys); multipart
/// bodies byte for byte with the boundary read from the `Content-Type` field.
struct FeedServiceRequestTests {
    static let base = "https://feed.api.example.com"
    /// An id with every character that could change a URL's shape, and non-ASCII text.
    static let hostile = "a/b?c#d é"
    static let hostileEncoded = "a%2Fb%3Fc%23d%20%C3%A9"
    static let accept = ("Accept", "application/json")

    static let cases: [(FeedService, ExpectedRequest)] = [
        (
            .timeline(user: "alice", cursor: nil, limit: 20),
            ExpectedRequest(method: .get, url: "\(base)/v1/timelines/alice?limit=20", headers: [accept])
        ),
        (
            .timeline(user: hostile, cursor: "p=2&x", limit: 5),
            ExpectedRequest(
                method: .get,
                url: "\(base)/v1/timelines/\(hostileEncoded)?cursor=p%3D2%26x&limit=5",
                headers: [accept]
            )
        ),
        (
            .post(id: hostile),
            ExpectedRequest(method: .get, url: "\(base)/v1/posts/\(hostileEncoded)", headers: [accept])
        ),
        (
            .like(post: hostile, user: "bob"),
            ExpectedRequest(method: .put, url: "\(base)/v1/posts/\(hostileEncoded)/likes/bob", headers: [accept])
        ),
        (
            .like(post: "p1", user: hostile),
            ExpectedRequest(method: .put, url: "\(base)/v1/posts/p1/likes/\(hostileEncoded)", headers: [accept])
        ),
        (
            .createPost(author: "alice", text: "Hello, \"world\" / é\n", attachments: []),
            ExpectedRequest(
                method: .post,
                url: "\(base)/v1/posts",
                headers: [accept, ("Content-Type", "application/json")],
                body: #"{"authorId":"alice","text":"Hello, \"world\" / é\n"}"#
            )
        ),
    ]

    @Test(arguments: cases)
    func exactRequest(_ service: FeedService, _ expected: ExpectedRequest) throws {
        let client = try ServiceClient<FeedService>(baseURL: Self.base, transport: MockTransport())
        expected.check(try client.makeRequest(service))
    }

    @Test
    func postWithAttachmentsIsMultipart() throws {
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let service = FeedService.createPost(
            author: "alice",
            text: "two files",
            attachments: [
                AttachmentUpload(fileName: "cat.png", contentType: "image/png", data: png),
                AttachmentUpload(fileName: "note \"1\".txt", contentType: "text/plain", data: Data("hi\r\n".utf8)),
            ]
        )
        let client = try ServiceClient<FeedService>(baseURL: Self.base, transport: MockTransport())
        let request = try client.makeRequest(service)
        #expect(request.method == .post)
        #expect(request.url.absoluteString == "\(Self.base)/v1/posts")
        let contentType = try #require(request.headers["Content-Type"])
        let prefix = "multipart/form-data; boundary="
        #expect(contentType.hasPrefix(prefix))
        let boundary = String(contentType.dropFirst(prefix.count))
        #expect(!boundary.isEmpty)
        #expect(request.headers.fields.map(\.name) == ["Accept", "Content-Type"])

        var expected = Data()
        expected.append(
            contentsOf: """
                --\(boundary)\r
                Content-Disposition: form-data; name="authorId"\r
                \r
                alice\r
                --\(boundary)\r
                Content-Disposition: form-data; name="text"\r
                \r
                two files\r
                --\(boundary)\r
                Content-Disposition: form-data; name="attachment"; filename="cat.png"\r
                Content-Type: image/png\r
                \r

                """.utf8
        )
        expected.append(png)
        expected.append(
            contentsOf: """
                \r
                --\(boundary)\r
                Content-Disposition: form-data; name="attachment"; filename="note %221%22.txt"\r
                Content-Type: text/plain\r
                \r
                hi\r
                \r
                --\(boundary)--\r

                """.utf8
        )
        #expect(request.body == expected)
    }

    @Test(arguments: [
        (FeedService.timeline(user: "a", cursor: nil, limit: 1), RequestPolicy.RetryClass.idempotent, "timeline"),
        (.post(id: "p"), .idempotent, "post"),
        (.createPost(author: "a", text: "t", attachments: []), .never, "createPost"),
        (.like(post: "p", user: "u"), .idempotent, "like"),
    ])
    func policyAndOperationName(_ service: FeedService, _ retry: RequestPolicy.RetryClass, _ name: String) throws {
        #expect(service.policy.retry == retry)
        #expect(service.policy.timeout == .seconds(10))
        #expect(service.operationName == name)
        // The spelled-out name is the one the protocol's default would find by reflection.
        #expect(Mirror(reflecting: service).children.first?.label == name)
    }
}
