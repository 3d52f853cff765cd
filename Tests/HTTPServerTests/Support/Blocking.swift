import Foundation
import HTTPFramingCorpus

/// Runs blocking socket work on a thread of its own, away from the cooperative pool the server's
/// handlers need (blocking the pool's few threads could starve the server under test).
func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try body() })
        }
        thread.start()
    }
}

/// Opens a connection, sends `request`, reads one response and closes.
func exchange(port: Int, _ request: String, host: String = "127.0.0.1") async throws -> RawConnection.Response {
    try await blocking {
        let connection = try RawConnection(port: port, host: host)
        try connection.send(request)
        return try connection.readResponse(bodyless: request.hasPrefix("HEAD "))
    }
}
