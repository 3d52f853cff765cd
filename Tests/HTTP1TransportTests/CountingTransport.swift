import ServiceCore
import Synchronization

/// A fallback that counts the requests it is given and passes them on.
final class CountingTransport: Transport {
    let next: any Transport
    private let sent = Atomic<Int>(0)

    init(_ next: any Transport) { self.next = next }

    /// How many requests reached it.
    var count: Int { sent.load(ordering: .relaxed) }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        sent.add(1, ordering: .relaxed)
        return try await next.send(request)
    }
}
