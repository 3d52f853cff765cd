public import ServiceCore

/// Replacements a test (or an embedding program) makes at the composition root.
public struct DaemonOverrides: Sendable {
    /// A transport per module name, instead of the configured one.
    public var transports: [String: any Transport] = [:]
    /// Middlewares per module name placed after the signing middleware, just outside the
    /// transport: they see (and may alter) the signed request.
    public var afterSigning: [String: [any Middleware]] = [:]
    /// Where introspected bearer tokens are cached, instead of the in-memory default (for
    /// example a store shared by several daemons).
    public var tokenCache: (any TokenCache)?

    /// Creates empty overrides.
    public init() {}
}
