import Foundation
import ServiceCore
import ServiceTesting
import Testing
import UserModule

/// The exact request of every case: method, URL with query, header fields in order, body bytes.
///
/// JSON bodies are compared byte for byte: the module encodes them with sorted keys.
struct UserServiceRequestTests {
    static let base = "https://users.api.example.com"
    /// An id with every character that could change a URL's shape, and non-ASCII text.
    static let hostile = "a/b?c#d é"
    static let hostileEncoded = "a%2Fb%3Fc%23d%20%C3%A9"
    static let accept = ("Accept", "application/json")

    static let cases: [(UserService, ExpectedRequest)] = [
        (
            .profile(id: "alice"),
            ExpectedRequest(method: .get, url: "\(base)/v1/users/alice", headers: [accept])
        ),
        (
            .profile(id: hostile),
            ExpectedRequest(method: .get, url: "\(base)/v1/users/\(hostileEncoded)", headers: [accept])
        ),
        (
            .follow(target: "bob", actor: hostile),
            ExpectedRequest(method: .put, url: "\(base)/v1/users/\(hostileEncoded)/following/bob", headers: [accept])
        ),
        (
            .unfollow(target: hostile, actor: "alice"),
            ExpectedRequest(
                method: .delete,
                url: "\(base)/v1/users/alice/following/\(hostileEncoded)",
                headers: [accept]
            )
        ),
        (
            .followers(id: "alice", cursor: nil, limit: 20),
            ExpectedRequest(method: .get, url: "\(base)/v1/users/alice/followers?limit=20", headers: [accept])
        ),
        (
            .followers(id: hostile, cursor: "c2/=&+ x", limit: 100),
            ExpectedRequest(
                method: .get,
                url: "\(base)/v1/users/\(hostileEncoded)/followers?cursor=c2%2F%3D%26%2B%20x&limit=100",
                headers: [accept]
            )
        ),
        (
            .introspect(token: "sandbox-alice"),
            ExpectedRequest(
                method: .post,
                url: "\(base)/v1/sessions/introspect",
                headers: [accept, ("Content-Type", "application/json")],
                body: #"{"token":"sandbox-alice"}"#
            )
        ),
        (
            .introspect(token: "t\"/\\é"),
            ExpectedRequest(
                method: .post,
                url: "\(base)/v1/sessions/introspect",
                headers: [accept, ("Content-Type", "application/json")],
                body: #"{"token":"t\"/\\é"}"#
            )
        ),
    ]

    @Test(arguments: cases)
    func exactRequest(_ service: UserService, _ expected: ExpectedRequest) throws {
        let client = try ServiceClient<UserService>(baseURL: Self.base, transport: MockTransport())
        expected.check(try client.makeRequest(service))
    }

    @Test
    func baseURLPathPrefixIsKept() throws {
        let client = try ServiceClient<UserService>(
            baseURL: "https://gw.example.com/users/", transport: MockTransport())
        let request = try client.makeRequest(.profile(id: "alice"))
        #expect(request.url.absoluteString == "https://gw.example.com/users/v1/users/alice")
    }

    @Test(arguments: [
        (UserService.profile(id: "a"), RequestPolicy.RetryClass.idempotent, "profile"),
        (.follow(target: "a", actor: "b"), .idempotent, "follow"),
        (.unfollow(target: "a", actor: "b"), .idempotent, "unfollow"),
        (.followers(id: "a", cursor: nil, limit: 1), .idempotent, "followers"),
        (.introspect(token: "t"), .idempotent, "introspect"),
    ])
    func policyAndOperationName(_ service: UserService, _ retry: RequestPolicy.RetryClass, _ name: String) throws {
        #expect(service.policy.retry == retry)
        #expect(service.operationName == name)
        // The spelled-out name is the one the protocol's default would find by reflection.
        #expect(Mirror(reflecting: service).children.first?.label == name)
        #expect(service.policy.acceptableStatus == 200..<300)
        let client = try ServiceClient<UserService>(baseURL: Self.base, transport: MockTransport())
        #expect(try client.makeRequest(service).timeout == service.policy.timeout)
    }

    @Test
    func introspectionHasAShortTimeout() {
        #expect(UserService.introspect(token: "t").policy.timeout == .seconds(5))
        #expect(UserService.profile(id: "a").policy.timeout == .seconds(10))
    }

    @Test
    func descriptionRedactsTheToken() {
        let text = String(describing: UserService.introspect(token: "secret-token-value"))
        #expect(!text.contains("secret-token-value"))
        #expect(text == "introspect(token: [REDACTED])")
        #expect(String(describing: UserService.profile(id: "alice")) == #"profile(id: "alice")"#)
    }
}
