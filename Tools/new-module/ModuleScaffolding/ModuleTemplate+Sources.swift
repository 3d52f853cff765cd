extension ModuleTemplate {
    /// `<Name>Service.swift`: the enum with one example case.
    static func service(_ spec: ModuleSpec) -> String {
        let name = spec.name
        return #"""
            public import ServiceCore

            /// The \#(spec.slug) upstream's API.
            ///
            /// Each case is data; send it with the typed client (which validates inputs first) or
            /// with a `ServiceClient` of this service. For each endpoint add a case here, then its
            /// path, method and task in the `+Request` extension, its input rules in the
            /// `+Validation` extension, a typed method in the client, and its contract in
            /// `docs/upstreams-\#(spec.slug).md` (linked from `docs/upstreams.md`).
            public enum \#(name)Service: Service, Equatable {
                /// `GET /v1/items/{id}`: one item (the generated example; replace it with the real API).
                case item(id: String)

                /// The upstream's error body.
                public typealias ErrorEnvelope = \#(name)ErrorEnvelope

                /// `\#(spec.moduleName)`.
                public static var moduleName: String { \#(spec.moduleName)Identity.name }
            }

            """#
    }

    /// `<Name>Service+Request.swift`: path, method and task per case.
    static func serviceRequest(_ spec: ModuleSpec) -> String {
        #"""
        public import ServiceCore

        extension \#(spec.name)Service {
            /// The case's name for logs and metrics, spelled out: the protocol's default finds it by
            /// reflection, which costs microseconds on every call. Add each new case here.
            public var operationName: String {
                switch self {
                case .item: "item"
                }
            }

            /// The case's path; identifiers are percent-encoded as single segments.
            public var path: RequestPath {
                switch self {
                case .item(let id): "/v1/items/\(id)"
                }
            }

            /// The case's method.
            public var method: HTTPMethod {
                switch self {
                case .item: .get
                }
            }

            /// The case's query and body (JSON bodies use `SortedKeysJSONEncoder()`).
            public var task: RequestTask {
                switch self {
                case .item: .plain
                }
            }
        }

        """#
    }

    /// `<Name>Service+Validation.swift`: input rules per case.
    static func serviceValidation(_ spec: ModuleSpec) -> String {
        #"""
        public import ServiceCore

        extension \#(spec.name)Service {
            /// Checks the case's inputs; `ServiceClient` calls it before it builds any request.
            ///
            /// Identifiers must be 1-128 bytes of UTF-8 without control characters and not `.` or `..`.
            /// - Throws: ``ServiceError`` with code `invalidRequest`, naming the field and the rule.
            public func validate() throws(ServiceError) {
                let check = InputRules(for: self)
                switch self {
                case .item(let id):
                    try check.identifier(id, named: "id")
                }
            }
        }

        """#
    }

    /// `<Name>Client.swift`: the typed facade.
    static func client(_ spec: ModuleSpec) -> String {
        let name = spec.name
        return #"""
            public import ServiceCore

            /// The \#(spec.slug) upstream, with types: each method validates its inputs, sends one
            /// ``\#(name)Service`` case and decodes the answer.
            ///
            /// ```swift
            /// let client = try \#(name)Client(domain: .init(environment: .production), transport: transport)
            /// let item = try await client.item(id: "i1")
            /// ```
            ///
            /// Every method throws ``ServiceError``: code `invalidRequest` for bad input (nothing is sent),
            /// `unacceptableStatus` with a ``\#(name)ErrorEnvelope`` for a non-2xx answer, and the
            /// client's other codes for transport and decoding failures.
            public struct \#(name)Client: ModuleClient {
                /// The module's identity, whose known base URLs the domain initializer uses.
                public typealias Module = \#(spec.moduleName)Identity

                /// The generic client underneath, for raw access and ``ServiceClient/makeRequest(_:)``.
                public let serviceClient: ServiceClient<\#(name)Service>

                /// Wraps a client made at the composition root.
                public init(_ serviceClient: ServiceClient<\#(name)Service>) {
                    self.serviceClient = serviceClient
                }

                /// One item.
                /// - Parameter id: The item's id.
                public func item(id: String) async throws -> \#(name)Item {
                    try await serviceClient.send(.item(id: id), as: \#(name)Item.self)
                }
            }

            """#
    }

    /// `Models/<Name>Item.swift`: the example answer.
    static func item(_ spec: ModuleSpec) -> String {
        #"""
        /// An item, as `GET /v1/items/{id}` answers it (the generated example model).
        public struct \#(spec.name)Item: Codable, Sendable, Equatable {
            /// The item's id.
            public var id: String
            /// The item's name.
            public var name: String

            /// Creates an item.
            public init(id: String, name: String) {
                self.id = id
                self.name = name
            }
        }

        """#
    }
}
