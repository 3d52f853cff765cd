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
public struct UserClient: Sendable {
    /// The generic client underneath, for raw access and ``ServiceClient/makeRequest(_:)``.
    public let serviceClient: ServiceClient<UserService>

    /// Wraps a client made at the composition root.
    public init(_ serviceClient: ServiceClient<UserService>) {
        self.serviceClient = serviceClient
    }

    /// Creates a client for a domain setting.
    /// - Parameters:
    ///   - domain: The environment or explicit base URL.
    ///   - transport: The transport that does the I/O.
    ///   - middlewares: Middlewares, outermost first (request id, logging, signing...).
    ///   - configuration: Encoders, decoders, default headers and limits.
    /// - Throws: ``ServiceError`` with code `invalidConfiguration` when the base URL is missing
    ///   or not absolute http(s).
    public init(
        domain: UserDomain,
        transport: any Transport,
        middlewares: [any Middleware] = [],
        configuration: ServiceClientConfiguration = .init()
    ) throws {
        self.serviceClient = try ServiceClient(
            baseURL: domain.resolvedBaseURL(),
            transport: transport,
            middlewares: middlewares,
            configuration: configuration
        )
    }

    /// A user's profile.
    /// - Parameter id: The user's id.
    public func profile(id: String) async throws -> User {
        try await send(.profile(id: id), as: User.self)
    }

    /// Makes `actor` follow `target`; following twice is not an error.
    public func follow(target: String, actor: String) async throws {
        try await send(.follow(target: target, actor: actor))
    }

    /// Makes `actor` stop following `target`; unfollowing a user not followed is not an error.
    public func unfollow(target: String, actor: String) async throws {
        try await send(.unfollow(target: target, actor: actor))
    }

    /// One page of a user's followers.
    /// - Parameters:
    ///   - id: The user's id.
    ///   - cursor: The previous page's ``FollowersPage/nextCursor``, or `nil` for the first page.
    ///   - limit: The page size, 1...100.
    public func followers(id: String, cursor: String? = nil, limit: Int = 20) async throws -> FollowersPage {
        try await send(.followers(id: id, cursor: cursor, limit: limit), as: FollowersPage.self)
    }

    /// What a bearer token stands for; an unknown or expired token is inactive, not an error.
    public func introspect(token: String) async throws -> TokenIntrospection {
        try await send(.introspect(token: token), as: TokenIntrospection.self)
    }

    private func send<T: Decodable>(_ service: UserService, as type: T.Type) async throws -> T {
        try service.validate()
        return try await serviceClient.send(service, as: type)
    }

    private func send(_ service: UserService) async throws {
        try service.validate()
        _ = try await serviceClient.send(service)
    }
}
