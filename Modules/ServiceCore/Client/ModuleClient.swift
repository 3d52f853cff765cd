/// A feature module's typed client: a thin facade over a ``ServiceClient`` of the module's
/// service, with one method per case.
///
/// Implement it with the stored client and the wrapping initializer; the extension adds the
/// initializer from a ``ServiceDomain``:
///
/// ```swift
/// public struct UserClient: ModuleClient {
///     public typealias Module = UserModuleIdentity
///     public let serviceClient: ServiceClient<UserService>
///     public init(_ serviceClient: ServiceClient<UserService>) { self.serviceClient = serviceClient }
///
///     public func profile(id: String) async throws -> User {
///         try await serviceClient.send(.profile(id: id), as: User.self)
///     }
/// }
///
/// let users = try UserClient(domain: .init(environment: .production), transport: transport)
/// ```
///
/// Methods need not validate: ``ServiceClient`` calls the case's ``Service/validate()`` before
/// it builds the request, so bad input fails with `invalidRequest` and nothing is sent.
public protocol ModuleClient: Sendable {
    /// The module's service, whose cases the client sends.
    associatedtype API: Service
    /// The module's identity, which gives its domains their known base URLs.
    associatedtype Module: ModuleIdentity

    /// The generic client underneath, for raw access and ``ServiceClient/makeRequest(_:)``.
    var serviceClient: ServiceClient<API> { get }

    /// Wraps a client made at the composition root.
    init(_ serviceClient: ServiceClient<API>)
}

extension ModuleClient {
    /// Creates a client for a domain setting.
    /// - Parameters:
    ///   - domain: The environment or explicit base URL.
    ///   - transport: The transport that does the I/O.
    ///   - middlewares: Middlewares, outermost first (request id, logging, signing...).
    ///   - configuration: Encoders, decoders, default headers and limits.
    /// - Throws: ``ServiceError`` with code ``ServiceError/Code-swift.struct/invalidConfiguration``
    ///   when the base URL is missing or not absolute http(s).
    public init(
        domain: ServiceDomain<Module>,
        transport: any Transport,
        middlewares: [any Middleware] = [],
        configuration: ServiceClientConfiguration = .init()
    ) throws {
        self.init(
            try ServiceClient(
                baseURL: domain.resolvedBaseURL(),
                transport: transport,
                middlewares: middlewares,
                configuration: configuration
            )
        )
    }
}
