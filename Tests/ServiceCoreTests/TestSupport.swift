import Foundation
import HTTPTypes
import JSON
import ServiceCore
import Synchronization

/// A transport answering from a closure and keeping every request, for the core's own tests.
struct ClosureTransport: Transport {
    final class Log: Sendable {
        let requests = Mutex<[HTTPRequest]>([])
    }

    let log = Log()
    let answer: @Sendable (HTTPRequest) async throws -> HTTPResponse

    init(_ answer: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse) {
        self.answer = answer
    }

    var requests: [HTTPRequest] { log.requests.withLock { $0 } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        log.requests.withLock { $0.append(request) }
        return try await answer(request)
    }

    static func json(_ status: Int, _ body: String) -> ClosureTransport {
        ClosureTransport { _ in
            HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        }
    }
}

struct Profile: Codable, Equatable, Sendable {
    var id: String
    var name: String
}

struct Problem: Decodable, Sendable, Equatable {
    var title: String
    var status: Int
}

enum DemoService: Service, Equatable {
    typealias ErrorEnvelope = Problem

    case profile(id: String)
    case search(QueryParameters)
    case create(Profile)
    case form(QueryParameters)
    case upload(String)
    case raw(Data)
    case filteredCreate(Profile, dryRun: Bool)
    case custom
    case accept404

    static var moduleName: String { "DemoModule" }

    var path: RequestPath {
        switch self {
        case .profile(let id): "/v1/users/\(id)"
        case .search: "/v1/search"
        case .create, .filteredCreate: "v1/users"
        case .form: "/v1/form"
        case .upload(let name): "/v1/files/\(name)"
        case .raw: "/v1/raw"
        case .custom: ""
        case .accept404: "/v1/maybe"
        }
    }

    var method: HTTPMethod {
        switch self {
        case .profile, .search, .accept404: .get
        case .create, .form, .upload, .raw, .filteredCreate: .post
        case .custom: HTTPMethod(rawValue: "PURGE")
        }
    }

    var task: RequestTask {
        switch self {
        case .profile, .custom, .accept404: .plain
        case .search(let query): .query(query)
        case .create(let profile): .json(profile)
        case .form(let fields): .form(fields)
        case .upload(let name):
            .multipart(
                [
                    .field("title", "Hi \"you\""),
                    .file("file", fileName: name, contentType: "text/plain", data: Data("hello\r\n".utf8)),
                ],
                boundary: "BOUNDARY"
            )
        case .raw(let data): .data(data, contentType: "application/octet-stream")
        case .filteredCreate(let profile, let dryRun): .queryAndBody(["dry_run": .bool(dryRun)], body: .json(profile))
        }
    }

    var headers: HTTPHeaders {
        switch self {
        case .create: ["X-Trace": "1"]
        default: [:]
        }
    }

    var policy: RequestPolicy {
        switch self {
        case .accept404: RequestPolicy(retry: .idempotent, acceptableStatus: 200..<405)
        default: .default(for: method)
        }
    }
}

func sortedEncoder() -> ServiceClientConfiguration {
    ServiceClientConfiguration(jsonEncoder: SortedKeysJSONEncoder())
}

func text(_ data: Data?) -> String {
    data.map { String(decoding: $0, as: UTF8.self) } ?? "<nil>"
}
