/// Where a feature module's upstream lives: an environment, or an explicit base URL that
/// overrides it.
///
/// A module names it once, with its identity as the generic parameter, and the known URLs come
/// from that identity:
///
/// ```swift
/// public typealias UserDomain = ServiceDomain<UserModuleIdentity>
///
/// let production = UserDomain(environment: .production)
/// // The daemon gives the sandbox upstream's URL:
/// let sandbox = UserDomain.sandbox(baseURL: "http://127.0.0.1:49152")
/// ```
///
/// The sandbox upstream listens on a port chosen when it starts, so the sandbox environment has no
/// fixed URL: the daemon passes it as an override. The URL is validated when a client is made.
public struct ServiceDomain<Module: ModuleIdentity>: Sendable, Equatable {
    /// A deployment environment.
    public typealias Environment = ServiceEnvironment

    /// The base URLs known per environment: the module's ``ModuleIdentity/knownBaseURLs``.
    public static var knownBaseURLs: [Environment: String] { Module.knownBaseURLs }

    /// The environment.
    public var environment: Environment
    /// A base URL that replaces the environment's, or `nil` to use ``knownBaseURLs``.
    public var baseURLOverride: String?

    /// Creates a domain setting.
    /// - Parameters:
    ///   - environment: The environment whose known URL is used unless overridden.
    ///   - baseURLOverride: An absolute `http(s)` URL to use instead.
    public init(environment: Environment, baseURLOverride: String? = nil) {
        self.environment = environment
        self.baseURLOverride = baseURLOverride
    }

    /// The sandbox environment at the URL the sandbox upstream listens on.
    public static func sandbox(baseURL: String) -> Self {
        Self(environment: .sandbox, baseURLOverride: baseURL)
    }

    /// The known base URL of an environment, or `nil` when the module knows none (the sandbox).
    public static func baseURL(for environment: Environment) -> String? {
        knownBaseURLs[environment]
    }

    /// The base URL to use: the override if any, else the environment's known URL.
    /// - Throws: ``ServiceError`` with code ``ServiceError/Code-swift.struct/invalidConfiguration``,
    ///   naming the module, when neither exists (the sandbox without an override).
    public func resolvedBaseURL() throws(ServiceError) -> String {
        if let baseURLOverride { return baseURLOverride }
        guard let known = Self.baseURL(for: environment) else {
            throw ServiceError(
                code: .invalidConfiguration,
                module: Module.name,
                operation: "init",
                message: "the \(environment.rawValue) environment has no known base URL; give one as an override"
            )
        }
        return known
    }
}
