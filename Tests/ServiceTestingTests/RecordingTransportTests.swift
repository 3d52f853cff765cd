import Foundation
import HTTPTypes
import ServiceCore
import ServiceTesting
import Testing

struct RecordingTransportTests {
    @Test func recordsRequestsResponsesAndErrorsInOrder() async throws {
        let mock = MockTransport()
        mock.on(.request(path: "/a"), .status(200))
        mock.on(.request(path: "/b"), .timeout)
        mock.on(.request(path: "/c"), .status(404))
        let recorder = RecordingTransport(wrapping: mock)
        for path in ["/a", "/b", "/c"] {
            _ = try? await recorder.send(HTTPRequest(method: .get, url: URL(string: "http://h.test\(path)")!))
        }
        #expect(recorder.requests.map(\.url.path) == ["/a", "/b", "/c"])
        #expect(recorder.responses.map(\.status) == [200, 404])
        let exchanges = recorder.exchanges
        #expect(exchanges.allSatisfy { $0.isComplete })
        #expect((exchanges[1].error as? TransportError)?.code == .timedOut)
        #expect(exchanges[1].response == nil)
    }

    @Test func keepsTheServiceContextOfEachRequest() async throws {
        let recorder = RecordingTransport(wrapping: MockTransport.always(.json(200, #"{"id":"a","name":"b"}"#)))
        let client = try ServiceClient<DirectoryService>(baseURL: "https://directory.test", transport: recorder)
        _ = try await client.send(.profile(id: "a"))
        _ = try await client.send(.rename(id: "a", name: "n"))
        #expect(recorder.exchanges.map { $0.context?.operation } == ["profile", "rename"])
        #expect(recorder.requests.last?.method == .put)
        #expect(recorder.requests.last?.body == Data(#"{"name":"n"}"#.utf8))
    }

    @Test func aRequestInFlightIsVisibleAndResetForgetsEverything() async throws {
        let recorder = RecordingTransport(wrapping: MockTransport.always(.delay(.milliseconds(300), then: .ok)))
        let task = Task { try await recorder.send(HTTPRequest(method: .get, url: URL(string: "http://h.test/slow")!)) }
        for _ in 0..<100 where recorder.exchanges.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        #expect(recorder.exchanges.first?.isComplete == false)
        _ = try await task.value
        #expect(recorder.exchanges.first?.response?.status == 200)
        recorder.reset()
        #expect(recorder.exchanges.isEmpty)
    }
}
