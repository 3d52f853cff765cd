import AppLogging
import Foundation
import HTTPServer
import HTTPTypes
import RequestSigning
import ServiceCore
import ServiceTesting
import Testing

@testable import SwiftyDaemon

/// The app API as route groups: which routes exist, which modules they make routed, and which
/// modules live mode then requires.
struct RouteGroupTests {
    /// A client factory whose every module sends to `transport`.
    static func factory(transport: MockTransport = .always(.serviceUnavailable)) throws -> ModuleClientFactory {
        var bindings: [String: UpstreamBinding] = [:]
        var overrides = DaemonOverrides()
        for module in FeatureModuleRegistry.modules {
            bindings[module.name] = UpstreamBinding(
                module: module.name,
                baseURL: "http://127.0.0.1:9",
                key: try SigningKey(id: module.keyID, tag: module.tag, secret: [UInt8](repeating: 7, count: 32)),
                transport: .curl,
                timeout: .seconds(1)
            )
            overrides.transports[module.name] = transport
        }
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        return ModuleClientFactory(
            bindings: bindings, curl: nil, http1: nil, urlSession: nil, metrics: Metrics(), logger: logger,
            overrides: overrides)
    }

    static let routes: [(String, String)] = [
        ("GET", "/v1/me"), ("GET", "/v1/users/u1"), ("PUT", "/v1/me/following/u1"), ("DELETE", "/v1/me/following/u1"),
        ("GET", "/v1/feed"), ("POST", "/v1/posts"), ("PUT", "/v1/posts/p1/like"), ("GET", "/v1/wallet"),
        ("POST", "/v1/payments"), ("GET", "/v1/payments/c1"), ("GET", "/v1/home"),
    ]

    /// Every route of the app API is served, and asks for a bearer token first.
    @Test(arguments: routes)
    func everyRouteIsServedAndAuthenticated(_ method: String, _ target: String) async throws {
        let router = try AppAPI(modules: Self.factory(), tokenCache: InMemoryTokenCache(), tokenTTL: 30).makeRouter()
        let response = await router.handle(ServerRequest(method: method, target: target))
        #expect(response.status == 401)
        #expect(response.headers["WWW-Authenticate"]?.hasPrefix("Bearer") == true)
    }

    @Test(arguments: [("GET", "/v1/inventory/items/i1", 404), ("GET", "/v1/posts", 405), ("POST", "/v1/me", 405)])
    func otherRequestsAreRefusedByTheRouter(_ method: String, _ target: String, _ status: Int) async throws {
        let router = try AppAPI(modules: Self.factory(), tokenCache: InMemoryTokenCache(), tokenTTL: 30).makeRouter()
        #expect(await router.handle(ServerRequest(method: method, target: target)).status == status)
    }

    /// An authenticated call reaches the module through its group's client.
    @Test func anAuthenticatedCallReachesTheModule() async throws {
        let transport = MockTransport()
            .on(
                .operation("introspect", module: "UserModule"),
                .json(200, #"{"active":true,"userId":"alice","expiresAt":"2099-01-01T00:00:00Z"}"#)
            )
            .on(
                .operation("profile", module: "UserModule"),
                .json(200, #"{"id":"bob","displayName":"Bob","followerCount":1,"followingCount":2}"#))
        let router = try AppAPI(
            modules: Self.factory(transport: transport), tokenCache: InMemoryTokenCache(), tokenTTL: 30
        ).makeRouter()
        let response = await router.handle(
            ServerRequest(method: "GET", target: "/v1/users/bob", headers: ["Authorization": "Bearer t"]))
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self).contains(#""displayName":"Bob""#))
    }

    /// A malformed percent-escape in the query is refused with 400 before any module is called.
    @Test(arguments: ["/v1/feed?cursor=%zz", "/v1/feed?limit=%FF", "/v1/feed?%=1", "/v1/feed?cursor=%C3"])
    func aMalformedQueryIsA400(_ target: String) async throws {
        let transport = MockTransport()
            .on(
                .operation("introspect", module: "UserModule"),
                .json(200, #"{"active":true,"userId":"alice","expiresAt":"2099-01-01T00:00:00Z"}"#)
            )
        let router = try AppAPI(
            modules: Self.factory(transport: transport), tokenCache: InMemoryTokenCache(), tokenTTL: 30
        ).makeRouter()
        let response = await router.handle(
            ServerRequest(method: "GET", target: target, headers: ["Authorization": "Bearer t"]))
        #expect(response.status == 400)
        #expect(String(decoding: response.body, as: UTF8.self).contains("malformed percent-encoding"))
        #expect(transport.exchanges.map(\.operation) == ["introspect"])
    }

    @Test func routedModulesFollowTheRouteGroups() {
        let routed = FeatureModuleRegistry.routedModules()
        #expect(routed.map(\.name) == ["FeedModule", "PaymentModule", "UserModule"])
        #expect(
            routed.map(\.callers) == [
                ["FeedRoutes", "HomeRoutes"], ["HomeRoutes", "PaymentRoutes"],
                ["the authenticator", "HomeRoutes", "UserRoutes"],
            ])
        let usersOnly = FeatureModuleRegistry.routedModules(groups: [UserRoutes.self])
        #expect(usersOnly.map(\.name) == ["UserModule"])
        #expect(FeatureModuleRegistry.routedModules(groups: []).map(\.callers) == [["the authenticator"]])
    }

    /// Live mode needs the settings of routed modules only, and says which field is missing and
    /// what calls the module.
    @Test func liveModeRequiresOnlyRoutedModules() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("routed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyFile = directory.appendingPathComponent("user.key").path
        try Data((Data(repeating: 1, count: 32).base64EncodedString() + "\n").utf8).write(
            to: URL(fileURLWithPath: keyFile))
        var configuration = DaemonConfiguration()
        configuration.drainDelaySeconds = 0
        configuration.mode = .live
        configuration.modules["UserModule"] = .init(baseURL: "https://users.example", keyFile: keyFile)

        let usersOnly = FeatureModuleRegistry.routedModules(groups: [UserRoutes.self])
        let bindings = try UpstreamBinding.live(configuration, environment: [:], routed: usersOnly)
        #expect(bindings.keys.sorted() == ["UserModule"])

        let error = try #require(throws: ConfigurationProblems.self) {
            try UpstreamBinding.live(configuration, environment: [:])
        }
        #expect(
            error.problems == [
                "modules.FeedModule.baseURL is required in live mode (FeedRoutes, HomeRoutes call it)",
                "modules.PaymentModule.baseURL is required in live mode (HomeRoutes, PaymentRoutes call it)",
            ])
        configuration.modules["FeedModule"] = .init(baseURL: "https://feed.example")
        let check = ConfigurationCheck.problems(in: configuration, environment: [:])
        #expect(check.contains("modules.FeedModule.keyFile is required in live mode (FeedRoutes, HomeRoutes call it)"))
    }

    /// A group gets clients only of the modules it declares.
    @Test func aGroupMakesOnlyTheClientsItDeclares() throws {
        let clients = RouteGroupClients(for: FeedRoutes.self, factory: try Self.factory())
        let error = try #require(throws: ConfigurationProblems.self) {
            _ = try clients.make(UserClientProbe.self)
        }
        #expect(error.description == "FeedRoutes makes a UserModule client but does not list UserModule in its modules")
    }
}

/// A module client whose identity names the user module, for a group that does not declare it.
struct UserClientProbe: ModuleClient {
    enum Identity: ModuleIdentity {
        static let name = "UserModule"
        static let keyID = "user-1"
        static let tag = "UserModule"
        static let knownBaseURLs: [ServiceEnvironment: String] = [:]
    }

    enum API: Service {
        case ping

        static var moduleName: String { Identity.name }
        var path: RequestPath { "/ping" }
        var method: HTTPMethod { .get }
    }

    typealias Module = Identity

    let serviceClient: ServiceClient<API>

    init(_ serviceClient: ServiceClient<API>) {
        self.serviceClient = serviceClient
    }
}
