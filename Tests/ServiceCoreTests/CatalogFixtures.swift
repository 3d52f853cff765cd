import Foundation
import HTTPTypes
import JSON
import ServiceCore

/// A feature module's identity, as a module declares it, for the shared-API tests.
enum CatalogModuleIdentity: ModuleIdentity {
    static let name = "CatalogModule"
    static let keyID = "catalog-1"
    static let tag = "CatalogModule"
    static let knownBaseURLs: [ServiceEnvironment: String] = [
        .staging: "https://catalog.staging.example.test",
        .production: "https://catalog.example.test/api/",
    ]
}

/// An identity that knows production only.
enum ProductionOnlyIdentity: ModuleIdentity {
    static let name = "ProductionOnlyModule"
    static let keyID = "production-only-1"
    static let tag = "ProductionOnlyModule"
    static let knownBaseURLs: [ServiceEnvironment: String] = [.production: "https://p.example.test"]
}

/// A module's domain setting, as a module names it.
typealias CatalogDomain = ServiceDomain<CatalogModuleIdentity>

/// A request body with a timestamp, encoded by hand as RFC 3339 text.
struct CatalogEntry: Codable, Sendable, Equatable {
    var name: String
    var url: String
    var listedAt: Date
    var retiredAt: Date?

    private enum CodingKeys: String, CodingKey {
        case name, url, listedAt, retiredAt
    }

    init(name: String, url: String, listedAt: Date, retiredAt: Date? = nil) {
        self.name = name
        self.url = url
        self.listedAt = listedAt
        self.retiredAt = retiredAt
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        url = try container.decode(String.self, forKey: .url)
        listedAt = try container.decodeRFC3339(forKey: .listedAt)
        retiredAt = try container.decodeRFC3339IfPresent(forKey: .retiredAt)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(url, forKey: .url)
        try container.encodeRFC3339(listedAt, forKey: .listedAt)
        try container.encodeRFC3339IfPresent(retiredAt, forKey: .retiredAt)
    }
}

/// A feature module's service using the shared input rules, envelope and encoder.
enum CatalogService: Service, Equatable {
    typealias ErrorEnvelope = ProblemDetails

    case item(id: String)
    case search(cursor: String?, limit: Int)
    case list(CatalogEntry)

    static var moduleName: String { CatalogModuleIdentity.name }

    var path: RequestPath {
        switch self {
        case .item(let id): "/v1/items/\(id)"
        case .search: "/v1/items"
        case .list: "/v1/items"
        }
    }

    var method: HTTPMethod {
        switch self {
        case .item, .search: .get
        case .list: .post
        }
    }

    var task: RequestTask {
        switch self {
        case .item: .plain
        case .search(let cursor, let limit): .query(["cursor": cursor.map(QueryValue.string), "limit": .int(limit)])
        case .list(let entry): .json(entry, encoder: SortedKeysJSONEncoder())
        }
    }

    func validate() throws(ServiceError) {
        let check = InputRules(for: self)
        switch self {
        case .item(let id):
            try check.identifier(id, named: "id")
        case .search(let cursor, let limit):
            try check.cursor(cursor)
            try check.limit(limit)
        case .list(let entry):
            try check.opaque(entry.name, named: "name", maximumBytes: 16)
            guard entry.retiredAt.map({ $0 > entry.listedAt }) ?? true else {
                throw check.failure("retiredAt must be after listedAt")
            }
        }
    }
}

/// A feature module's typed client over the shared protocol.
struct CatalogClient: ModuleClient {
    typealias Module = CatalogModuleIdentity

    let serviceClient: ServiceClient<CatalogService>

    init(_ serviceClient: ServiceClient<CatalogService>) {
        self.serviceClient = serviceClient
    }

    func item(id: String) async throws -> Profile {
        try await serviceClient.send(.item(id: id), as: Profile.self)
    }
}
