import AppLogging
import Foundation
import HTTPTypes
import ServiceCore
import ServiceTesting
import Synchronization

/// A module with one case of each retry class.
enum ShopService: Service {
    case item(id: String)
    case charge(amount: Int, idempotencyKey: String?)
    case notify(text: String)
    case slow(timeout: Duration)

    static var moduleName: String { "ShopModule" }

    var path: RequestPath {
        switch self {
        case .item(let id): "/v1/items/\(id)"
        case .charge: "/v1/charges"
        case .notify: "/v1/notifications"
        case .slow: "/v1/slow"
        }
    }

    var method: HTTPMethod {
        switch self {
        case .item, .slow: .get
        case .charge, .notify: .post
        }
    }

    var headers: HTTPHeaders {
        if case .charge(_, let key?) = self { return ["Idempotency-Key": key] }
        return [:]
    }

    var policy: RequestPolicy {
        switch self {
        case .item: .default(for: .get)
        case .charge: RequestPolicy(retry: .requiresIdempotencyKey)
        case .notify: RequestPolicy(retry: .never)
        case .slow(let timeout): RequestPolicy(timeout: timeout, retry: .idempotent)
        }
    }
}

/// Stands in for the signing middleware: numbers every request it sees, so a test can tell each
/// attempt passed the inner middlewares again.
final class SignatureStamp: Middleware {
    private let count = Atomic<Int>(0)

    var stamped: Int { count.load(ordering: .relaxed) }

    func intercept(
        _ request: HTTPRequest,
        context: MiddlewareContext,
        next: @Sendable (HTTPRequest, MiddlewareContext) async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        var request = request
        let number = count.wrappingAdd(1, ordering: .relaxed).newValue
        request.headers.replaceOrAdd(name: "Signature", value: "sig-\(number)")
        request.headers.replaceOrAdd(name: "Attempt", value: "\(context.attempt)")
        return try await next(request, context)
    }
}

/// A client of ``ShopService`` at `https://shop.test`.
func shopClient(_ transport: any Transport, _ middlewares: [any Middleware]) throws -> ServiceClient<ShopService> {
    try ServiceClient<ShopService>(baseURL: "https://shop.test", transport: transport, middlewares: middlewares)
}

/// A logger keeping its records in memory.
func memoryLogger() -> (Logger, InMemoryLogHandler) {
    let handler = InMemoryLogHandler()
    return (Logger(label: "test", handler: handler, logLevel: .debug), handler)
}

/// Waits, in bounded steps of real time (at most 5 s), until `condition` holds; `false` if it
/// never did.
func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<5000 {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return condition()
}

/// The code of a `ServiceError` thrown by `body`, or `nil` when it succeeded.
func serviceErrorCode(_ body: () async throws -> Void) async -> ServiceError.Code? {
    do {
        try await body()
        return nil
    } catch let error as ServiceError {
        return error.code
    } catch {
        return nil
    }
}
