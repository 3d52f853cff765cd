import Foundation
import HTTPTypes
import ServiceCore
import ServiceTesting
import Testing

// The example of docs/declaring-a-service.md, compiled and checked, so the guide cannot rot.

struct Book: Codable, Sendable, Equatable {
    var id: String
    var title: String
}

struct NewBook: Codable, Sendable, Equatable {
    var title: String
    var authorID: String
}

struct LibraryProblem: Decodable, Sendable, Equatable {
    var title: String
    var detail: String?
}

enum LibraryService: Service, Equatable {
    case book(id: String)
    case search(text: String, tags: [String], page: Int?)
    case create(NewBook, idempotencyKey: String)
    case uploadCover(bookID: String, jpeg: Data)
    case delete(id: String)

    typealias ErrorEnvelope = LibraryProblem

    static var moduleName: String { "LibraryModule" }

    var path: RequestPath {
        switch self {
        case .book(let id), .delete(let id): "/v1/books/\(id)"
        case .search: "/v1/books"
        case .create: "/v1/books"
        case .uploadCover(let id, _): "/v1/books/\(id)/cover"
        }
    }

    var method: HTTPMethod {
        switch self {
        case .book, .search: .get
        case .create, .uploadCover: .post
        case .delete: .delete
        }
    }

    var task: RequestTask {
        switch self {
        case .book, .delete:
            .plain
        case .search(let text, let tags, let page):
            .query(["q": .string(text), "tag": .array(tags.map(QueryValue.string)), "page": page.map(QueryValue.int)])
        case .create(let book, _):
            .json(book)
        case .uploadCover(_, let jpeg):
            .multipart([.file("cover", fileName: "cover.jpg", contentType: "image/jpeg", data: jpeg)])
        }
    }

    var headers: HTTPHeaders {
        switch self {
        case .create(_, let key): ["Idempotency-Key": key]
        default: [:]
        }
    }

    var policy: RequestPolicy {
        switch self {
        case .create: RequestPolicy(timeout: .seconds(5), retry: .requiresIdempotencyKey)
        case .uploadCover: RequestPolicy(timeout: .seconds(30), retry: .never)
        default: .default(for: method)
        }
    }
}

struct DocumentationExampleTests {
    @Test func theGuidesServiceBuildsTheDocumentedRequests() throws {
        let client = try ServiceClient<LibraryService>(
            baseURL: "https://library.example.com/api",
            transport: MockTransport.alwaysOK()
        )
        #expect(
            try client.makeRequest(.book(id: "a/b?c")).url.absoluteString
                == "https://library.example.com/api/v1/books/a%2Fb%3Fc")
        let search = try client.makeRequest(.search(text: "swift", tags: ["a", "b"], page: nil))
        #expect(search.url.absoluteString == "https://library.example.com/api/v1/books?q=swift&tag=a&tag=b")
        let create = try client.makeRequest(.create(NewBook(title: "T", authorID: "x"), idempotencyKey: "k1"))
        #expect(create.headers["Idempotency-Key"] == "k1")
        #expect(String(decoding: create.body ?? Data(), as: UTF8.self) == #"{"title":"T","authorID":"x"}"#)
        #expect(
            LibraryService.create(NewBook(title: "T", authorID: "x"), idempotencyKey: "k").policy.retry
                == .requiresIdempotencyKey)
        let upload = try client.makeRequest(.uploadCover(bookID: "1", jpeg: Data([0xFF, 0xD8])))
        #expect(upload.headers["Content-Type"]?.hasPrefix("multipart/form-data; boundary=") == true)
        #expect(try client.makeRequest(.delete(id: "1")).method == .delete)
    }

    @Test func theGuidesErrorEnvelopeIsDecoded() async throws {
        let mock = MockTransport()
        _ = mock.on(.operation("book"), .json(404, #"{"title": "Not Found", "detail": "no book 9"}"#))
        let client = try ServiceClient<LibraryService>(baseURL: "https://library.example.com", transport: mock)
        let error = await #expect(throws: ServiceError.self) { try await client.send(.book(id: "9"), as: Book.self) }
        #expect(error?.envelope(as: LibraryProblem.self) == LibraryProblem(title: "Not Found", detail: "no book 9"))
    }
}
