public import AppLogging
import Foundation
public import HTTPTypes

/// Logs each attempt: the request line and redacted headers at `debug`, the outcome with its
/// duration at `info` (or `warning` for failures).
///
/// Header values of ``HTTPHeaders/sensitiveNames`` (`Authorization`, `Cookie`, `Set-Cookie`,
/// `Signature`, `Signature-Input`, ...) and of any configured names are written as
/// `[REDACTED]`; query strings are left out; bodies are never logged.
public struct LoggingMiddleware: Middleware {
    private let redacted: Set<String>
    private let logger: Logger?

    /// Creates the middleware.
    /// - Parameters:
    ///   - logger: Where to log; the context's logger when `nil`.
    ///   - redactedHeaders: Header names redacted in addition to the sensitive ones.
    public init(logger: Logger? = nil, redactedHeaders: Set<String> = []) {
        self.logger = logger
        self.redacted = HTTPHeaders.sensitiveNames.union(redactedHeaders.map { $0.lowercased() })
    }

    /// Logs the attempt around `next`.
    public func intercept(
        _ request: HTTPRequest,
        context: MiddlewareContext,
        next: @Sendable (HTTPRequest, MiddlewareContext) async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        var logger = self.logger ?? context.logger
        logger[metadataKey: "module"] = .string(context.module)
        logger[metadataKey: "operation"] = .string(context.operation)
        logger[metadataKey: "request_id"] = .string(context.requestID)
        logger[metadataKey: "attempt"] = .string(String(context.attempt))
        let target = "\(request.method) \(Self.withoutQuery(request))"
        logger.debug(
            "sending \(target)",
            metadata: ["headers": .string(Self.render(request.headers.redacting(redacted)))]
        )
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            logger.info(
                "\(target) -> \(response.status)",
                metadata: [
                    "status": .string(String(response.status)),
                    "duration_ms": .string(Self.milliseconds(since: start)),
                ]
            )
            return response
        } catch {
            logger.warning(
                "\(target) failed: \(error)",
                metadata: ["duration_ms": .string(Self.milliseconds(since: start))]
            )
            throw error
        }
    }

    private static func withoutQuery(_ request: HTTPRequest) -> String {
        let text = request.urlString
        return text.firstIndex(of: "?").map { String(text[..<$0]) } ?? text
    }

    private static func render(_ headers: HTTPHeaders) -> String {
        headers.map { "\($0.name): \($0.value)" }.joined(separator: "; ")
    }

    private static func milliseconds(since start: ContinuousClock.Instant) -> String {
        let elapsed = ContinuousClock.now - start
        let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        return String(Int(ms.rounded()))
    }
}
