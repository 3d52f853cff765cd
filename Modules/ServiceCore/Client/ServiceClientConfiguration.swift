public import AppLogging
import Foundation
public import HTTPTypes
public import JSON
import Synchronization

/// The settings of a ``ServiceClient`` beyond its base URL, transport and middlewares.
public struct ServiceClientConfiguration: Sendable {
    /// Encodes `.json` bodies of cases that bring no encoder of their own:
    /// ``StreamingJSONEncoder`` by default.
    public var jsonEncoder: any JSONBodyEncoder
    /// Decodes answers and error envelopes: the date format and user info of the project's
    /// JSON decoder (strict syntax; members an answer's type does not name are ignored).
    public var jsonDecoder: StreamingJSONDecoder
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
        jsonDecoder: StreamingJSONDecoder = StreamingJSONDecoder(),
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
    /// A random starting point per process, so ids of different processes do not collide.
    private static let base: UInt64 = {
        var generator = SystemRandomNumberGenerator()
        return generator.next()
    }()
    private static let counter = Atomic<UInt64>(0)

    /// 16 lowercase hexadecimal digits, unique within the process and unpredictable across
    /// processes: a counter from a random start, mixed by SplitMix64's finaliser (a bijection,
    /// so two calls never give the same id). No system call per id.
    @Sendable public static func random() -> String {
        let count = counter.wrappingAdd(1, ordering: .relaxed).newValue
        var mixed = base &+ count &* 0x9E37_79B9_7F4A_7C15
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        mixed ^= mixed >> 31
        // Written digit by digit into the string's own storage: one allocation per id.
        return String(unsafeUninitializedCapacity: 16) { digits in
            for index in 0..<16 {
                let nibble = UInt8(truncatingIfNeeded: mixed >> (60 - 4 * UInt64(index))) & 0x0F
                digits[index] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
            }
            return 16
        }
    }
}
