public import ServiceCore

/// Where the user upstream lives: an environment, or an explicit base URL that
/// overrides it.
///
/// ```swift
/// let production = UserDomain(environment: .production)
/// // The daemon gives the sandbox upstream's URL:
/// let sandbox = UserDomain.sandbox(baseURL: "http://127.0.0.1:49152")
/// ```
///
/// The known URLs are ``UserModuleIdentity/knownBaseURLs``; the sandbox has none, so
/// the daemon passes the sandbox upstream's URL as an override. The URL is validated when a
/// client is made.
public typealias UserDomain = ServiceDomain<UserModuleIdentity>
