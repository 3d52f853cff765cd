import HTTPServer

/// One fixed answer of a scripted sandbox upstream (``ScriptedUpstream``): a route, and the value
/// answered for any well-formed parameters.
///
/// Every `:name` segment of the pattern must be an identifier as the contract defines it (1-128
/// bytes of UTF-8, no control characters, not `.` or `..`); anything else is 400
/// `invalid_request`, as the hand-written upstreams answer. The value is encoded as JSON with
/// sorted keys.
///
/// ```swift
/// ScriptedAnswer(module: "InventoryModule", "GET", "/v1/items/:id") { parameters in
///     InventoryItem(id: parameters["id"] ?? "", name: "Sample item")
/// }
/// ```
public struct ScriptedAnswer: Sendable {
    /// The module whose upstream answers it, for example `InventoryModule`.
    public let module: String
    /// The method, for example `GET`.
    public let method: String
    /// The path pattern, for example `/v1/items/:id`.
    public let pattern: String
    /// The answer's status.
    public let status: Int
    /// The answer for checked parameters.
    let respond: @Sendable ([String: String]) -> ServerResponse

    /// Creates a fixture.
    /// - Parameters:
    ///   - module: The module whose upstream answers it.
    ///   - method: The method.
    ///   - pattern: The path pattern, with `:name` segments for parameters.
    ///   - status: The answer's status: 200 unless given.
    ///   - answer: The value to answer, from the decoded parameters by name.
    public init<Value: Encodable & Sendable>(
        module: String,
        _ method: String,
        _ pattern: String,
        status: Int = 200,
        answer: @escaping @Sendable ([String: String]) -> Value
    ) {
        self.module = module
        self.method = method
        self.pattern = pattern
        self.status = status
        self.respond = { parameters in Answer.json(status, answer(parameters)) }
    }
}
