public import AppLogging
public import Foundation

/// The settings of a ``ServiceClient`` beyond its base URL, transport and middlewares.
public struct ServiceClientConfiguration: Sendable {
    /// Encodes `.json` bodies of cases that bring no encoder of their own:
    /// ``StreamingJSONEncoder`` by default; any `JSONEncoder` works too.
    public var jsonEncoder: any JSONBodyEncoder
    /// Decodes answers and error envelopes.
    public var jsonDecoder: JSONDecoder
    /// Header fields added to every request before the case's own (the case's win).
    public var defaultHeaders: HTTPHeaders
    /// How many body bytes a ``ServiceError`` keeps (1 KiB by default).
    public var errorBodyLimit: Int
    /// The logger handed to middlewares through their context.
    public var logger: Logger
    /// Makes the id of each logical request (16 random hexadecimal digits by default).
    public var requestIDGenerator: @Sendable () -> String

    /// Creates a configuration.
    public init(
        jsonEncoder: any JSONBodyEncoder = StreamingJSONEncoder(),
        jsonDecoder: JSONDecoder = JSONDecoder(),
        defaultHeaders: HTTPHeaders = ["Accept": "application/json"],
        errorBodyLimit: Int = 1024,
        logger: Logger = Logger(label: "swifty.client", handler: SwallowingLogHandler()),
        requestIDGenerator: @escaping @Sendable () -> String = RequestID.random
    ) {
        self.jsonEncoder = jsonEncoder
        self.jsonDecoder = jsonDecoder
        self.defaultHeaders = defaultHeaders
        self.errorBodyLimit = errorBodyLimit
        self.logger = logger
        self.requestIDGenerator = requestIDGenerator
    }
}

/// Request identifiers.
public enum RequestID {
    /// 16 random lowercase hexadecimal digits.
    @Sendable public static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        let value = generator.next() as UInt64
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
