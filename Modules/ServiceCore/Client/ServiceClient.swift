import AppLogging
public import Foundation
public import HTTPTypes
import JSON
import Synchronization

/// Sends the cases of one ``Service`` through a middleware chain and a transport.
///
/// Create one per module at the composition root, with the module's base URL, a transport and
/// the module's middlewares; share it freely (it is a value, safe to use from any task):
///
/// ```swift
/// let client = try ServiceClient<UserService>(
///     baseURL: "https://users.example.com",
///     transport: URLSessionTransport(),
///     middlewares: [LoggingMiddleware(), signing]
/// )
/// let user: User = try await client.send(.profile(id: "alice"), as: User.self, atKeyPath: "data")
/// ```
///
/// Middlewares are folded around the transport with the first one outermost. Every failure is
/// thrown as a ``ServiceError``.
public struct ServiceClient<S: Service>: Sendable {
    /// The module's base URL, validated when the client was created.
    public var baseURL: URL { storage.baseURL }
    /// The transport that does the I/O.
    public var transport: any Transport { storage.transport }
    /// The middlewares, outermost first.
    public var middlewares: [any Middleware] { storage.middlewares }
    /// Encoders, decoders, default headers and limits.
    public var configuration: ServiceClientConfiguration { storage.configuration }

    /// What the client was made with, in one object: a feature module's client and each call
    /// hold and pass the client by value, and a copy then counts one reference, not a dozen.
    private final class Storage: Sendable {
        let baseURL: URL
        let transport: any Transport
        let middlewares: [any Middleware]
        let configuration: ServiceClientConfiguration
        /// The base URL's text without a trailing `/`, joined with each case's path.
        let basePrefix: String
        /// The middlewares folded around the transport (``makeChain(transport:middlewares:)``).
        let chain: Next
        /// Stands for this client's decoder in the values decoded from a shared answer, so that
        /// a client with other decoder settings never takes them.
        let decodingScope = DecodingScope()

        init(
            baseURL: URL, transport: any Transport, middlewares: [any Middleware],
            configuration: ServiceClientConfiguration, chain: @escaping Next
        ) {
            self.baseURL = baseURL
            self.basePrefix = BaseURLValidator.prefix(of: baseURL)
            self.transport = transport
            self.middlewares = middlewares
            self.configuration = configuration
            self.chain = chain
        }
    }

    private let storage: Storage

    /// Creates a client.
    /// - Parameters:
    ///   - baseURL: The module's domain, absolute `http` or `https`, optionally with a path
    ///     prefix (`https://api.example.com/users/`); no query or fragment.
    ///   - transport: The transport that does the I/O.
    ///   - middlewares: Middlewares, outermost first.
    ///   - configuration: Encoders, decoders, default headers and limits.
    /// - Throws: ``ServiceError`` with code ``ServiceError/Code-swift.struct/invalidConfiguration``
    ///   when the base URL is not usable.
    public init(
        baseURL: URL,
        transport: any Transport,
        middlewares: [any Middleware] = [],
        configuration: ServiceClientConfiguration = .init()
    ) throws {
        try self.init(
            baseURLString: baseURL.absoluteString,
            transport: transport,
            middlewares: middlewares,
            configuration: configuration
        )
    }

    /// Creates a client from the base URL's text; see ``init(baseURL:transport:middlewares:configuration:)``.
    public init(
        baseURL: String,
        transport: any Transport,
        middlewares: [any Middleware] = [],
        configuration: ServiceClientConfiguration = .init()
    ) throws {
        try self.init(
            baseURLString: baseURL,
            transport: transport,
            middlewares: middlewares,
            configuration: configuration
        )
    }

    private init(
        baseURLString: String,
        transport: any Transport,
        middlewares: [any Middleware],
        configuration: ServiceClientConfiguration
    ) throws {
        let validated: URL
        do {
            validated = try BaseURLValidator.validate(baseURLString)
        } catch {
            throw ServiceError(
                code: .invalidConfiguration,
                module: S.moduleName,
                operation: "init",
                message: error.description
            )
        }
        storage = Storage(
            baseURL: validated, transport: transport, middlewares: middlewares, configuration: configuration,
            chain: Self.makeChain(transport: transport, middlewares: middlewares))
    }

    /// Builds the request for a case without sending it: URL, method, headers, body and timeout.
    ///
    /// Calls the case's ``Service/validate()`` first.
    /// - Throws: ``ServiceError`` with code ``ServiceError/Code-swift.struct/invalidRequest``.
    public func makeRequest(_ service: S) throws -> HTTPRequest {
        do {
            try service.validate()
        } catch let error as ServiceError {
            throw error
        } catch {
            throw failure(.invalidRequest, service, "\(error)", underlying: error)
        }
        let encoded: RequestTask.Encoded
        do {
            encoded = try service.task.encoded(
                encoder: storage.configuration.jsonEncoder,
                boundary: MultipartEncoder.randomBoundary
            )
        } catch {
            throw failure(.invalidRequest, service, "\(error)", underlying: error)
        }
        let prefix: String
        if let override = service.baseURL {
            guard let validated = try? BaseURLValidator.validate(override.absoluteString) else {
                throw failure(.invalidRequest, service, "the case's base URL \(override) is not absolute http(s)")
            }
            prefix = BaseURLValidator.prefix(of: validated)
        } else {
            prefix = storage.basePrefix
        }
        let path = service.path.encoded
        guard PercentEncoding.isValidEncodedPath(path) else {
            throw failure(.invalidRequest, service, "the path \"\(path)\" has characters a URL path cannot hold")
        }
        // No URL parsing per request: the prefix was checked when the client was made, the path
        // holds only RFC 3986 path characters and the query only unreserved ones and escapes.
        let urlText = RequestURL.join(prefix: prefix, path: path, query: encoded.query)
        let headers = Self.mergeHeaders(
            defaults: storage.configuration.defaultHeaders,
            contentType: encoded.contentType,
            service: service.headers
        )
        return HTTPRequest(
            method: service.method,
            checkedURLString: urlText,
            headers: headers,
            body: encoded.body,
            timeout: service.policy.timeout
        )
    }

    /// The client's default fields, then the body's `Content-Type`, then the case's own; each
    /// replaces fields of the same name where the first of them stood. One allocation.
    static func mergeHeaders(defaults: HTTPHeaders, contentType: String?, service: HTTPHeaders) -> HTTPHeaders {
        var fields: [HTTPHeaders.Field] = []
        fields.reserveCapacity(defaults.count + service.count + 1)
        fields.append(contentsOf: defaults.fields)
        if let contentType {
            HTTPHeaders.replaceOrAdd(.init(name: "Content-Type", value: contentType), in: &fields)
        }
        for field in service {
            HTTPHeaders.replaceOrAdd(field, in: &fields)
        }
        return HTTPHeaders(fields)
    }

    /// Sends a case and returns the raw response after status validation.
    /// - Throws: ``ServiceError``; a non-accepted status carries the response and the decoded
    ///   ``Service/ErrorEnvelope``.
    public func send(_ service: S) async throws -> HTTPResponse {
        let request = try makeRequest(service)
        let policy = service.policy
        // Naming a case takes reflection: once per call.
        let operation = service.operationName
        let attempts = AttemptCounter()
        let requestID = storage.configuration.requestIDGenerator()
        // A constant, so the chain's closure below reads it where it is instead of copying it.
        let context = MiddlewareContext(
            module: S.moduleName,
            operation: operation,
            requestID: requestID,
            policy: policy,
            clientLogger: storage.configuration.logger,
            attempts: attempts
        )
        let response: HTTPResponse
        do {
            if Task.isCancelled { throw CancellationError() }
            response = try await MiddlewareContext.$current.withValue(context) {
                try await storage.chain(request, context)
            }
        } catch let error as ServiceError {
            throw error
        } catch {
            throw transportFailure(error, service, request: request, attempts: attempts.value)
        }
        guard policy.acceptableStatus.contains(response.status) else {
            throw ServiceError(
                code: .unacceptableStatus,
                module: S.moduleName,
                operation: operation,
                message: "HTTP \(response.status) is outside the accepted \(Self.describe(policy.acceptableStatus))",
                request: request,
                response: .init(response, limit: storage.configuration.errorBodyLimit),
                envelope: decodeEnvelope(response),
                attempts: attempts.value
            )
        }
        return response
    }

    /// Sends a case and decodes its JSON answer, optionally at a dotted key path.
    /// - Parameters:
    ///   - service: The case.
    ///   - type: The type to decode.
    ///   - keyPath: A dotted path of object keys (`"data.user"`) to the value to decode, or `nil`
    ///     for the whole body.
    /// - Throws: ``ServiceError``, with code ``ServiceError/Code-swift.struct/decoding`` when the
    ///   body does not decode.
    public func send<T: Decodable & Sendable>(_ service: S, as type: T.Type = T.self, atKeyPath keyPath: String? = nil)
        async throws -> T
    {
        let response = try await send(service)
        do {
            // The closure takes the decoder alone: capturing `self` would copy the whole client.
            let decoder = storage.configuration.jsonDecoder
            let decode = {
                try KeyPathDecoding.decode(type, from: response.body, keyPath: keyPath, decoder: decoder)
            }
            // A response shared among identical reads is decoded once for all their callers.
            guard let shared = response.sharedDecodings else { return try decode() }
            return try shared.value(.init(decoder: storage.decodingScope, type: type, keyPath: keyPath), decode: decode)
        } catch {
            throw ServiceError(
                code: .decoding,
                module: S.moduleName,
                operation: service.operationName,
                message: "the body does not decode as \(T.self)\(keyPath.map { " at \"\($0)\"" } ?? ""): "
                    + KeyPathDecoding.explain(error),
                response: .init(response, limit: storage.configuration.errorBodyLimit),
                underlying: error
            )
        }
    }

    /// Sends a request through the rest of a chain.
    typealias Next = @Sendable (HTTPRequest, MiddlewareContext) async throws -> HTTPResponse

    /// The chain: middlewares folded around the transport, first outermost; built once per
    /// client. The transport end records each attempt in the call's counter (carried by the
    /// context, so the chain itself holds nothing of one call).
    private static func makeChain(transport: any Transport, middlewares: [any Middleware]) -> Next {
        var next: Next = { request, context in
            context.attempts?.record(context.attempt)
            return try await transport.send(request)
        }
        for middleware in middlewares.reversed() {
            let inner = next
            next = { request, context in
                try await middleware.intercept(request, context: context, next: inner)
            }
        }
        return next
    }

    private func decodeEnvelope(_ response: HTTPResponse) -> (any Sendable)? {
        guard S.ErrorEnvelope.self != NoErrorEnvelope.self, !response.body.isEmpty else { return nil }
        return try? storage.configuration.jsonDecoder.decode(S.ErrorEnvelope.self, from: response.body)
    }

    private func failure(_ code: ServiceError.Code, _ service: S, _ message: String, underlying: (any Error)? = nil)
        -> ServiceError
    {
        ServiceError(
            code: code,
            module: S.moduleName,
            operation: service.operationName,
            message: message,
            underlying: underlying
        )
    }

    private func transportFailure(_ error: any Error, _ service: S, request: HTTPRequest, attempts: Int)
        -> ServiceError
    {
        let code: ServiceError.Code
        let message: String
        switch error {
        case let error as TransportError where error.code == .timedOut:
            code = .timeout
            message = error.message
        case let error as TransportError where error.code == .cancelled:
            code = .cancelled
            message = error.message
        case let error as TransportError:
            code = .transport
            message = error.description
        case is CancellationError:
            code = .cancelled
            message = "the calling task was cancelled"
        default:
            code = .transport
            message = "\(error)"
        }
        return ServiceError(
            code: code,
            module: S.moduleName,
            operation: service.operationName,
            message: message,
            request: request,
            attempts: attempts,
            underlying: error
        )
    }

    private static func describe(_ range: Range<Int>) -> String {
        "\(range.lowerBound)-\(range.upperBound - 1)"
    }
}

/// Counts attempts that reached the transport, for ``ServiceError/attempts``.
package final class AttemptCounter: Sendable {
    private let highest = Atomic<Int>(0)

    /// Creates a counter at zero.
    package init() {}

    /// Notes that attempt number `attempt` reached the transport.
    package func record(_ attempt: Int) {
        _ = highest.max(attempt, ordering: .relaxed)
    }

    /// The highest attempt number recorded, 0 when none reached the transport.
    package var value: Int { highest.load(ordering: .relaxed) }
}

/// The identity of one ``ServiceClient``'s decoder in ``SharedDecodings``.
private final class DecodingScope: Sendable {}
