import Foundation

extension ServiceClient {
    /// Sends a case and calls `completion` with the raw response or the error: the calling
    /// style of the seed protocol, for code that does not use `async`.
    /// - Returns: A handle whose ``CancellableRequest/cancel()`` cancels the request; the
    ///   completion then receives a ``ServiceError/Code-swift.struct/cancelled`` error.
    @discardableResult
    public func send(
        _ service: S,
        completion: @escaping @Sendable (Result<HTTPResponse, ServiceError>) -> Void
    ) -> CancellableRequest {
        CancellableRequest(
            Task {
                completion(await Self.result { try await self.send(service) })
            }
        )
    }

    /// Sends a case, decodes its answer, and calls `completion` with the value or the error.
    /// - Returns: A handle that cancels the request.
    @discardableResult
    public func send<T: Decodable & Sendable>(
        _ service: S,
        as type: T.Type = T.self,
        atKeyPath keyPath: String? = nil,
        completion: @escaping @Sendable (Result<T, ServiceError>) -> Void
    ) -> CancellableRequest {
        CancellableRequest(
            Task {
                completion(await Self.result { try await self.send(service, as: type, atKeyPath: keyPath) })
            }
        )
    }

    private static func result<T>(_ body: () async throws -> T) async -> Result<T, ServiceError> {
        do {
            return .success(try await body())
        } catch let error as ServiceError {
            return .failure(error)
        } catch {
            return .failure(
                ServiceError(code: .transport, module: S.moduleName, operation: "", message: "\(error)")
            )
        }
    }
}

/// A request started with a completion handler; cancel it to stop it.
public struct CancellableRequest: Sendable {
    private let task: Task<Void, Never>

    init(_ task: Task<Void, Never>) {
        self.task = task
    }

    /// Cancels the request. The completion is still called, once, with a cancellation error
    /// (or with the result, if it had already arrived).
    public func cancel() {
        task.cancel()
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { task.isCancelled }

    /// Waits until the completion has been called.
    public func wait() async {
        await task.value
    }
}
