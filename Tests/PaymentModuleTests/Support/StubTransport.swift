import Foundation
import ServiceCore
import Synchronization

/// A transport for this target's tests: records every request and answers from a script, one
/// response per request, failing once the script is used up.
///
/// Meant to move to `ServiceTesting.MockTransport` once the test kit ships it.
final class StubTransport: Transport {
    private struct State {
        var responses: [HTTPResponse]
        var requests: [HTTPRequest] = []
    }

    private let state: Mutex<State>

    /// A transport that answers with `responses`, in order.
    init(_ responses: [HTTPResponse] = []) {
        state = Mutex(State(responses: responses))
    }

    /// A transport whose one answer has a JSON body.
    static func answering(
        _ status: Int,
        json body: String,
        contentType: String = "application/json"
    ) -> StubTransport {
        StubTransport([HTTPResponse(status: status, headers: ["Content-Type": contentType], body: Data(body.utf8))])
    }

    /// A transport whose one answer is `status` with no body.
    static func answering(_ status: Int) -> StubTransport {
        StubTransport([HTTPResponse(status: status)])
    }

    /// The requests received so far, in order.
    var requests: [HTTPRequest] {
        state.withLock { $0.requests }
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let next: HTTPResponse? = state.withLock { state in
            state.requests.append(request)
            return state.responses.isEmpty ? nil : state.responses.removeFirst()
        }
        guard let next else { throw TransportError(.other, "the stub transport has no response left") }
        return next
    }
}
