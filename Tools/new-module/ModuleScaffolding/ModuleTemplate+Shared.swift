extension ModuleTemplate {
    /// `<Name>Domain.swift`: the base URL per environment, with an override.
    static func domain(_ spec: ModuleSpec) -> String {
        let name = spec.name
        var entries: [String] = []
        if let staging = spec.stagingBaseURL { entries.append(".staging: \"\(literal(staging))\"") }
        entries.append(".production: \"\(literal(spec.productionBaseURL))\"")
        let known = collection(
            entries, opening: "    public static let knownBaseURLs: [Environment: String] = ", indentation: 4)
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
            /// The sandbox upstream listens on a port chosen when it starts, so the sandbox environment has no
            /// fixed URL: the daemon passes it as an override. The URL is validated when a client is made.
            public struct \#(name)Domain: Sendable, Equatable {
                /// A deployment environment.
                public enum Environment: String, Sendable, CaseIterable {
                    /// The in-process sandbox upstream; its URL is always an override.
                    case sandbox
                    /// The shared staging deployment.
                    case staging
                    /// The production deployment.
                    case production
                }

                /// The base URLs known per environment; the sandbox has none.
            \#(known)

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
                public static func sandbox(baseURL: String) -> \#(name)Domain {
                    \#(name)Domain(environment: .sandbox, baseURLOverride: baseURL)
                }

                /// The known base URL of an environment, or `nil` for the sandbox.
                public static func baseURL(for environment: Environment) -> String? {
                    knownBaseURLs[environment]
                }

                /// The base URL to use: the override if any, else the environment's known URL.
                /// - Throws: ``ServiceError`` with code `invalidConfiguration` when neither exists (the
                ///   sandbox without an override).
                public func resolvedBaseURL() throws(ServiceError) -> String {
                    if let baseURLOverride { return baseURLOverride }
                    guard let known = Self.baseURL(for: environment) else {
                        throw ServiceError(
                            code: .invalidConfiguration,
                            module: \#(spec.moduleName)Identity.name,
                            operation: "init",
                            message: "the \(environment.rawValue) environment has no known base URL; give one as an override"
                        )
                    }
                    return known
                }
            }

            """#
    }

    /// `<Name>ModuleIdentity.swift`: name, key id, tag and default base URLs as data.
    static func identity(_ spec: ModuleSpec) -> String {
        let name = spec.name
        return #"""
            /// The \#(spec.slug) module's name, signing identity and default domains, as data for the
            /// composition root.
            ///
            /// The daemon binds the module's signing key by ``keyID`` and ``tag``: the upstream accepts
            /// only requests signed with a key registered for the module's tag. Every feature module has an
            /// identity of this shape; `new-module` generates one for each new module.
            public enum \#(spec.moduleName)Identity {
                /// The module's name: its target, its service's `moduleName`, and its key in configuration.
                public static let name = "\#(spec.moduleName)"

                /// The id of the signing key the upstream expects unless configuration names another
                /// (the RFC 9421 `keyid` parameter).
                public static let keyID = "\#(literal(spec.keyID))"

                /// The RFC 9421 `tag` parameter: the module's name. A key signs only for its own tag, and the
                /// signing middleware checks it against the service's `moduleName`.
                public static let tag = "\#(spec.tag)"

                /// The base URLs known without configuration, by environment name (`staging`, `production`).
                public static let defaultBaseURLs: [String: String] = Dictionary(
                    uniqueKeysWithValues: \#(name)Domain.knownBaseURLs.map { ($0.key.rawValue, $0.value) }
                )

                /// Everything above in one value, for a registry line per module.
                public static let registration: (name: String, keyID: String, tag: String, baseURLs: [String: String]) = (
                    name, keyID, tag, defaultBaseURLs
                )
            }

            """#
    }

    /// `<Name>ErrorEnvelope.swift`: the upstream's RFC 9457 problem body.
    static func errorEnvelope(_ spec: ModuleSpec) -> String {
        let name = spec.name
        return #"""
            /// The \#(spec.slug) upstream's error body: an RFC 9457 problem document
            /// (`application/problem+json`).
            ///
            /// Read it from a failed call with `error.envelope(as:)`. Decoding is lenient so that a proxy's
            /// partial problem still decodes: only the members present are set, and ``type`` is
            /// `about:blank` when absent (RFC 9457 §3.1.1).
            public struct \#(name)ErrorEnvelope: Codable, Sendable, Equatable, CustomStringConvertible {
                /// A URI naming the problem type, `about:blank` for a plain HTTP status.
                public var type: String
                /// A short summary of the problem type.
                public var title: String?
                /// The HTTP status code the upstream answered with.
                public var status: Int?
                /// What happened in this occurrence, for a person.
                public var detail: String?
                /// A stable machine-readable code such as `not_found` (the codes are listed in `docs/upstreams.md`).
                public var code: String?

                /// Creates an envelope.
                public init(type: String = "about:blank", title: String?, status: Int?, detail: String? = nil, code: String? = nil)
                {
                    self.type = type
                    self.title = title
                    self.status = status
                    self.detail = detail
                    self.code = code
                }

                private enum CodingKeys: String, CodingKey {
                    case type, title, status, detail, code
                }

                /// Decodes the members present; a missing `type` is `about:blank`.
                public init(from decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: CodingKeys.self)
                    type = try container.decodeIfPresent(String.self, forKey: .type) ?? "about:blank"
                    title = try container.decodeIfPresent(String.self, forKey: .title)
                    status = try container.decodeIfPresent(Int.self, forKey: .status)
                    detail = try container.decodeIfPresent(String.self, forKey: .detail)
                    code = try container.decodeIfPresent(String.self, forKey: .code)
                }

                /// The problem in one line for logs: status, code (or title), detail.
                public var description: String {
                    let head = [status.map(String.init), code ?? title].compactMap { $0 }.joined(separator: " ")
                    return detail.map { head.isEmpty ? $0 : "\(head): \($0)" } ?? head
                }
            }

            """#
    }
}
