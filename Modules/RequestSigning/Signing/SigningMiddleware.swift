public import HTTPTypes
public import ServiceCore

/// Signs every request just before it is sent: a fresh signature per attempt.
///
/// Place it innermost, last in the client's middleware list, just outside the transport: then
/// a retry middleware further out sends each attempt through it again, and every attempt gets
/// a new `created`, a new nonce and a new signature, while middlewares that add headers run
/// before it so that what is signed is what is sent.
///
/// ```swift
/// let client = try ServiceClient<UserService>(
///     baseURL: url, transport: transport, middlewares: [logging, retry, SigningMiddleware(signer: signer)])
/// ```
public struct SigningMiddleware: Middleware {
    /// The signer.
    public let signer: RequestSigner
    /// Whether to refuse a request from a module other than the key's `tag`.
    public let checksModule: Bool

    /// Creates the middleware.
    /// - Parameters:
    ///   - signer: Signs with the module's key.
    ///   - checksModule: When `true` (the default), a request whose context names another module
    ///     than the key's `tag` fails with ``SigningError/Code-swift.struct/moduleMismatch``
    ///     instead of being signed with a key that does not speak for that module.
    public init(signer: RequestSigner, checksModule: Bool = true) {
        self.signer = signer
        self.checksModule = checksModule
    }

    /// Signs the request and passes it on.
    /// - Throws: ``SigningError`` when the request cannot be signed; whatever `next` throws.
    public func intercept(
        _ request: HTTPRequest,
        context: MiddlewareContext,
        next: @Sendable (HTTPRequest, MiddlewareContext) async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        if checksModule, let module = signer.key.tag, module != context.module {
            throw SigningError(
                .moduleMismatch,
                "key \"\(signer.key.id)\" signs for \"\(module)\", not for \"\(context.module)\"")
        }
        let signed = try signer.sign(request)
        return try await next(signed, context)
    }
}
