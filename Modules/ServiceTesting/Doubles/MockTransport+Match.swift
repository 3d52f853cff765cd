public import HTTPTypes
public import ServiceCore

extension MockTransport {
    /// Which requests a script answers: by service case (the `MiddlewareContext.current` that
    /// `ServiceClient` binds), by method and path, both, or any predicate.
    public struct Match: Sendable, CustomStringConvertible {
        /// What the match reads as in failure messages.
        public let description: String
        private let predicate: @Sendable (HTTPRequest, MiddlewareContext?) -> Bool

        /// A match from a predicate and a description used in failure messages.
        public init(
            _ description: String,
            predicate: @escaping @Sendable (HTTPRequest, MiddlewareContext?) -> Bool
        ) {
            self.description = description
            self.predicate = predicate
        }

        /// Whether the match accepts a request sent in `context`.
        public func matches(_ request: HTTPRequest, context: MiddlewareContext?) -> Bool {
            predicate(request, context)
        }

        /// Every request.
        public static var any: Match { Match("any request") { _, _ in true } }

        /// Requests sent for the service case named `operation` (its `operationName`, for example
        /// `profile`), optionally of one module only.
        public static func operation(_ operation: String, module: String? = nil) -> Match {
            let name = module.map { "\($0).\(operation)" } ?? operation
            return Match("case \(name)") { _, context in
                guard let context, context.operation == operation else { return false }
                return module == nil || context.module == module
            }
        }

        /// Requests with this method (any when `nil`) and URL path (percent-encoded, as sent;
        /// any when `nil`).
        public static func request(_ method: HTTPMethod? = nil, path: String? = nil) -> Match {
            let text = "\(method?.rawValue ?? "any method") \(path ?? "any path")"
            return Match(text) { request, _ in
                if let method, request.method != method { return false }
                if let path, MockTransport.encodedPath(of: request) != path { return false }
                return true
            }
        }

        /// Requests with this method to this path (percent-encoded, as sent).
        public static func method(_ method: HTTPMethod, path: String) -> Match {
            request(method, path: path)
        }

        /// Both matches.
        public func and(_ other: Match) -> Match {
            let first = self
            return Match("\(description) and \(other.description)") { request, context in
                first.matches(request, context: context) && other.matches(request, context: context)
            }
        }
    }
}
