/// A deployment environment of the upstreams: the sandbox, staging or production.
///
/// A feature module lists the base URLs it knows per environment in its
/// ``ModuleIdentity/knownBaseURLs``; a ``ServiceDomain`` picks one, or an override.
public enum ServiceEnvironment: String, Sendable, CaseIterable {
    /// The in-process sandbox upstream; its URL is always an override, since it listens on a
    /// port chosen when it starts.
    case sandbox
    /// The shared staging deployment.
    case staging
    /// The production deployment.
    case production
}
