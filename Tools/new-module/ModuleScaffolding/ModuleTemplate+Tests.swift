extension ModuleTemplate {
    /// The base URL the generated request and client tests build requests against.
    static func testBaseURL(_ spec: ModuleSpec) -> String {
        "https://\(spec.slug).example.test"
    }

    /// The imports of a test file, sorted as swift-format wants them.
    static func imports(_ spec: ModuleSpec) -> String {
        ["Foundation", spec.moduleName, "ServiceCore", "ServiceTesting", "Testing"].sorted()
            .map { "import \($0)" }.joined(separator: "\n")
    }

    /// `<Name>ServiceRequestTests.swift`: the exact request of every case.
    static func requestTests(_ spec: ModuleSpec) -> String {
        let name = spec.name
        return #"""
            \#(imports(spec))

            /// The exact request of every case: method, URL with query, header fields in order, body bytes.
            ///
            /// JSON bodies are compared byte for byte: the module encodes them with sorted keys.
            struct \#(name)ServiceRequestTests {
                static let base = "\#(testBaseURL(spec))"
                /// An id with every character that could change a URL's shape, and non-ASCII text.
                static let hostile = "a/b?c#d é"
                static let hostileEncoded = "a%2Fb%3Fc%23d%20%C3%A9"
                static let accept = ("Accept", "application/json")

                static let cases: [(\#(name)Service, ExpectedRequest)] = [
                    (
                        .item(id: "i1"),
                        ExpectedRequest(method: .get, url: "\(base)/v1/items/i1", headers: [accept])
                    ),
                    (
                        .item(id: hostile),
                        ExpectedRequest(method: .get, url: "\(base)/v1/items/\(hostileEncoded)", headers: [accept])
                    ),
                ]

                @Test(arguments: cases)
                func exactRequest(_ service: \#(name)Service, _ expected: ExpectedRequest) throws {
                    let client = try ServiceClient<\#(name)Service>(
                        baseURL: Self.base,
                        transport: MockTransport()
                    )
                    expected.check(try client.makeRequest(service))
                }

                @Test(arguments: [
                    (\#(name)Service.item(id: "i1"), RequestPolicy.RetryClass.idempotent, "item")
                ])
                func policyAndOperationName(
                    _ service: \#(name)Service,
                    _ retry: RequestPolicy.RetryClass,
                    _ name: String
                ) {
                    #expect(service.policy.retry == retry)
                    #expect(service.policy.timeout == .seconds(10))
                    #expect(service.operationName == name)
                    // The spelled-out name is the one the protocol's default would find by reflection.
                    #expect(Mirror(reflecting: service).children.first?.label == name)
                }
            }

            """#
    }

    /// `<Name>ClientTests.swift`: decoding, error envelopes and input validation.
    static func clientTests(_ spec: ModuleSpec) -> String {
        let name = spec.name
        return #"""
            \#(imports(spec))

            /// The typed client: answers decoded from sample bodies, error envelopes from non-2xx answers,
            /// and bad input refused before anything reaches the transport.
            struct \#(name)ClientTests {
                static let base = "\#(testBaseURL(spec))"

                static func client(_ transport: MockTransport) throws -> \#(name)Client {
                    try \#(name)Client(
                        domain: .init(environment: .production, baseURLOverride: base),
                        transport: transport
                    )
                }

                // MARK: - Answers

                @Test
                func itemDecodes() async throws {
                    let transport = MockTransport().on(
                        .operation("item", module: "\#(spec.moduleName)"),
                        .json(200, #"{"id":"i1","name":"First item"}"#),
                        afterwards: .fail
                    )
                    let item = try await Self.client(transport).item(id: "i1")
                    #expect(item == \#(name)Item(id: "i1", name: "First item"))
                    #expect(transport.requests.map(\.url.absoluteString) == ["\(Self.base)/v1/items/i1"])
                }

                @Test
                func wrongShapeIsADecodingError() async throws {
                    let transport = MockTransport.always(.json(200, #"{"id":"i1"}"#))
                    let error = try await #require(throws: ServiceError.self) {
                        try await Self.client(transport).item(id: "i1")
                    }
                    #expect(error.code == .decoding)
                    #expect(error.module == "\#(spec.moduleName)")
                    #expect(error.operation == "item")
                }

                // MARK: - Error envelopes

                @Test
                func notFoundCarriesTheProblem() async throws {
                    let transport = MockTransport.always(
                        .problem(
                            404,
                            #"{"type":"about:blank","title":"Not Found","status":404,"detail":"no item i9","code":"not_found"}"#
                        )
                    )
                    let error = try await #require(throws: ServiceError.self) {
                        try await Self.client(transport).item(id: "i9")
                    }
                    #expect(error.code == .unacceptableStatus)
                    #expect(error.response?.status == 404)
                    let envelope = try #require(error.envelope(as: \#(name)ErrorEnvelope.self))
                    #expect(
                        envelope
                            == \#(name)ErrorEnvelope(
                                title: "Not Found",
                                status: 404,
                                detail: "no item i9",
                                code: "not_found"
                            )
                    )
                }

                // MARK: - Input validation

                static let invalidCalls: [(String, @Sendable (\#(name)Client) async throws -> Void)] = [
                    ("id must not be empty", { _ = try await $0.item(id: "") }),
                    ("id must not contain control characters", { _ = try await $0.item(id: "a\nb") }),
                    ("id must not be \".\" or \"..\"", { _ = try await $0.item(id: "..") }),
                    ("id must be at most 128 bytes of UTF-8", { _ = try await $0.item(id: String(repeating: "é", count: 65)) }),
                ]

                @Test(arguments: invalidCalls)
                func badInputIsRefusedBeforeSending(
                    _ message: String,
                    _ call: @Sendable (\#(name)Client) async throws -> Void
                ) async throws {
                    let transport = MockTransport.always(.json(200, #"{"id":"i1","name":"x"}"#))
                    let client = try Self.client(transport)
                    let error = try await #require(throws: ServiceError.self) { try await call(client) }
                    #expect(error.code == .invalidRequest)
                    #expect(error.module == "\#(spec.moduleName)")
                    #expect(error.message == message)
                    #expect(transport.requests.isEmpty)
                }
            }

            """#
    }

    /// `<Name>DomainTests.swift`: the domain setting and the identity.
    static func domainTests(_ spec: ModuleSpec) -> String {
        let name = spec.name
        let staging = spec.stagingBaseURL.map { "\"\(literal($0))\"" } ?? "nil"
        let production = "\"\(literal(spec.productionBaseURL))\""
        var entries: [String] = []
        if let stagingBaseURL = spec.stagingBaseURL { entries.append("\"staging\": \"\(literal(stagingBaseURL))\"") }
        entries.append("\"production\": \(production)")
        let defaults = collection(entries, opening: "        let expected: [String: String] = ", indentation: 8)
        return #"""
            \#(imports(spec))

            /// The domain setting per environment and the module's identity.
            struct \#(name)DomainTests {
                @Test
                func knownEnvironmentsHaveTheirURLs() throws {
                    let production = \#(production)
                    let staging: String? = \#(staging)
                    #expect(\#(name)Domain.baseURL(for: .production) == production)
                    #expect(\#(name)Domain.baseURL(for: .staging) == staging)
                    #expect(\#(name)Domain.baseURL(for: .sandbox) == nil)
                }

                @Test
                func overrideWinsAndReachesTheClient() throws {
                    let client = try \#(name)Client(
                        domain: .sandbox(baseURL: "http://127.0.0.1:40009"),
                        transport: MockTransport()
                    )
                    let request = try client.serviceClient.makeRequest(.item(id: "i1"))
                    #expect(request.url.absoluteString == "http://127.0.0.1:40009/v1/items/i1")
                }

                @Test
                func sandboxWithoutOverrideFailsWhenTheClientIsMade() throws {
                    let error = try #require(throws: ServiceError.self) {
                        try \#(name)Client(domain: .init(environment: .sandbox), transport: MockTransport())
                    }
                    #expect(error.code == .invalidConfiguration)
                    #expect(error.module == "\#(spec.moduleName)")
                }

                @Test(arguments: ["", "example.com", "ftp://example.com", "https://example.com/?q=1"])
                func badOverrideFailsWhenTheClientIsMade(_ url: String) throws {
                    let error = try #require(throws: ServiceError.self) {
                        try \#(name)Client(
                            domain: .init(environment: .production, baseURLOverride: url),
                            transport: MockTransport()
                        )
                    }
                    #expect(error.code == .invalidConfiguration)
                }

                @Test
                func identityIsConsistent() {
                    #expect(\#(spec.moduleName)Identity.name == "\#(spec.moduleName)")
                    #expect(\#(name)Service.moduleName == \#(spec.moduleName)Identity.name)
                    let keyID = "\#(literal(spec.keyID))"
                    #expect(\#(spec.moduleName)Identity.keyID == keyID)
                    #expect(\#(spec.moduleName)Identity.tag == "\#(spec.tag)")
            \#(defaults)
                    #expect(\#(spec.moduleName)Identity.defaultBaseURLs == expected)
                    #expect(\#(name)Client.Module.self == \#(spec.moduleName)Identity.self)
                    #expect(
                        \#(spec.moduleName)Identity.defaultBaseURL(for: "production")
                            == \#(name)Domain.baseURL(for: .production)
                    )
                }
            }

            """#
    }
}
