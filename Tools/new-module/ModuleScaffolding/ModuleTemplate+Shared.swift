extension ModuleTemplate {
    /// `<Name>Domain.swift`: the module's ``ServiceDomain``, whose known URLs are the identity's.
    static func domain(_ spec: ModuleSpec) -> String {
        let name = spec.name
        return #"""
            public import ServiceCore

            /// Where the \#(spec.slug) upstream lives: an environment, or an explicit base URL that
            /// overrides it.
            ///
            /// ```swift
            /// let production = \#(name)Domain(environment: .production)
            /// // The daemon gives the sandbox upstream's URL:
            /// let sandbox = \#(name)Domain.sandbox(baseURL: "http://127.0.0.1:49152")
            /// ```
            ///
            /// The known URLs are ``\#(spec.moduleName)Identity/knownBaseURLs``; the sandbox has none, so
            /// the daemon passes the sandbox upstream's URL as an override. The URL is validated when a
            /// client is made.
            public typealias \#(name)Domain = ServiceDomain<\#(spec.moduleName)Identity>

            """#
    }

    /// `<Name>ModuleIdentity.swift`: name, key id, tag and known base URLs as data.
    static func identity(_ spec: ModuleSpec) -> String {
        var entries: [String] = []
        if let staging = spec.stagingBaseURL { entries.append(".staging: \"\(literal(staging))\"") }
        entries.append(".production: \"\(literal(spec.productionBaseURL))\"")
        let known = collection(
            entries, opening: "    public static let knownBaseURLs: [ServiceEnvironment: String] = ", indentation: 4)
        return #"""
            public import ServiceCore

            /// The \#(spec.slug) module's identity: its name, signing identity and known base URLs, as
            /// data for the composition root.
            ///
            /// The daemon registers it (`FeatureModuleRegistry.modules`) and binds the module's signing key
            /// by ``keyID`` and ``tag``. `new-module` generates an identity of this shape for each module.
            public enum \#(spec.moduleName)Identity: ModuleIdentity {
                /// The module's name: its target, its service's `moduleName`, and its key in configuration.
                public static let name = "\#(spec.moduleName)"

                /// The signing key id the upstream expects unless configuration names another.
                public static let keyID = "\#(literal(spec.keyID))"

                /// The RFC 9421 `tag` its key signs for: the module's name.
                public static let tag = "\#(spec.tag)"

                /// The base URLs known per environment; the sandbox has none.
            \#(known)
            }

            """#
    }

    /// `<Name>ErrorEnvelope.swift`: the upstream's RFC 9457 problem body, ``ProblemDetails``.
    static func errorEnvelope(_ spec: ModuleSpec) -> String {
        let name = spec.name
        return #"""
            public import ServiceCore

            /// The \#(spec.slug) upstream's error body: an RFC 9457 problem document
            /// (`application/problem+json`) whose `code` member is one of those listed in
            /// `docs/upstreams.md`.
            ///
            /// Read it from a failed call with `error.envelope(as: \#(name)ErrorEnvelope.self)`.
            public typealias \#(name)ErrorEnvelope = ProblemDetails

            """#
    }
}
