public import ServiceCore

/// Replacements a test (or an embedding program) makes at the composition root.
public struct DaemonOverrides: Sendable {
    /// A transport per module name, instead of the configured one.
    public var transports: [String: any Transport] = [:]
    /// Middlewares per module name placed after the signing middleware, just outside the
    /// transport: they see (and may alter) the signed request.
    public var afterSigning: [String: [any Middleware]] = [:]

    /// Creates empty overrides.
    public init() {}
}
