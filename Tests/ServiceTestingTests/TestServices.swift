import Foundation
import HTTPTypes
import ServiceCore

/// A user directory, as a feature module would declare it.
enum DirectoryService: Service {
    case profile(id: String)
    case rename(id: String, name: String)

    static var moduleName: String { "Directory" }

    var path: RequestPath {
        switch self {
        case .profile(let id): "/v1/users/\(id)"
        case .rename(let id, _): "/v1/users/\(id)/name"
        }
    }

    var method: HTTPMethod {
        switch self {
        case .profile: .get
        case .rename: .put
        }
    }

    var task: RequestTask {
        switch self {
        case .profile: .plain
        case .rename(_, let name): .json(["name": name])
        }
    }
}

/// A news feed: a second module with its own domain.
enum TimelineService: Service {
    case latest(count: Int)

    static var moduleName: String { "Timeline" }

    var path: RequestPath { "/v2/feed" }
    var method: HTTPMethod { .get }
    var task: RequestTask {
        switch self {
        case .latest(let count): .query(["count": .int(count)])
        }
    }
}

struct Profile: Codable, Equatable {
    var id: String
    var name: String
}
