public import ServiceCore

/// The user upstream, with types: each method validates its inputs, sends one ``UserService``
/// case and decodes the answer.
///
/// ```swift
/// let users = try UserClient(domain: .init(environment: .production), transport: transport)
/// let alice = try await users.profile(id: "alice")
/// ```
///
/// Every method throws ``ServiceError``: code `invalidRequest` for bad input (nothing is sent),
/// `unacceptableStatus` with a ``UserErrorEnvelope`` for a non-2xx answer, and the client's other
/// codes for transport and decoding failures.
public struct UserClient: ModuleClient {
    /// The module's identity, whose known base URLs the domain initializer uses.
    public typealias Module = UserModuleIdentity

    /// The generic client underneath, for raw access and ``ServiceClient/makeRequest(_:)``.
    public let serviceClient: ServiceClient<UserService>

    /// Wraps a client made at the composition root.
    public init(_ serviceClient: ServiceClient<UserService>) {
        self.serviceClient = serviceClient
    }

    /// A user's profile.
    /// - Parameter id: The user's id.
    public func profile(id: String) async throws -> User {
        try await serviceClient.send(.profile(id: id), as: User.self)
    }

    /// Makes `actor` follow `target`; following twice is not an error.
    public func follow(target: String, actor: String) async throws {
        _ = try await serviceClient.send(.follow(target: target, actor: actor))
    }

    /// Makes `actor` stop following `target`; unfollowing a user not followed is not an error.
    public func unfollow(target: String, actor: String) async throws {
        _ = try await serviceClient.send(.unfollow(target: target, actor: actor))
    }

    /// One page of a user's followers.
    /// - Parameters:
    ///   - id: The user's id.
    ///   - cursor: The previous page's ``FollowersPage/nextCursor``, or `nil` for the first page.
    ///   - limit: The page size, 1...100.
    public func followers(id: String, cursor: String? = nil, limit: Int = 20) async throws -> FollowersPage {
        try await serviceClient.send(.followers(id: id, cursor: cursor, limit: limit), as: FollowersPage.self)
    }

    /// What a bearer token stands for; an unknown or expired token is inactive, not an error.
    public func introspect(token: String) async throws -> TokenIntrospection {
        try await serviceClient.send(.introspect(token: token), as: TokenIntrospection.self)
    }
}
