import CurlTransport
import Foundation
import HTTPServer
import HTTPTypes
import ServiceCore
import ServiceTesting
import Synchronization
import Testing
import URLSessionTransport

/// Two modules in one process, each bound to a different transport at the composition root,
/// sending at the same time to one upstream.
struct PerModuleTransportTests {
    /// What the upstream saw: the `User-Agent` of each request, by module path.
    private final class Sightings: Sendable {
        let agents = Mutex<[String: [String]]>([:])

        func record(_ request: ServerRequest) {
            let module = request.path.hasPrefix("/v1/users") ? "Directory" : "Timeline"
            agents.withLock { $0[module, default: []].append(request.headers["User-Agent"] ?? "") }
        }
    }

    @Test func twoServicesUseTwoTransportsAtOnce() async throws {
        let sightings = Sightings()
        let handler: @Sendable (ServerRequest) async -> ServerResponse = { request in
            sightings.record(request)
            if request.path.hasPrefix("/v1/users/") {
                let id = String(request.path.dropFirst("/v1/users/".count))
                return .json(200, Profile(id: id, name: "user \(id)"))
            }
            return .json(200, data: Data("[\"\(request.query ?? "")\"]".utf8))
        }
        let curl = CurlTransport(configuration: .init(userAgent: "swifty-curl"))
        let urlSession = URLSessionTransport()
        let directoryWire = RecordingTransport(wrapping: curl)
        let timelineWire = RecordingTransport(wrapping: urlSession)

        try await withLoopbackServer(handler: handler) { server in
            let directory = try ServiceClient<DirectoryService>(baseURL: server.baseURL, transport: directoryWire)
            let timeline = try ServiceClient<TimelineService>(baseURL: server.baseURL, transport: timelineWire)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        let profile = try await directory.send(.profile(id: "u\(index)"), as: Profile.self)
                        #expect(profile.id == "u\(index)")
                    }
                    group.addTask {
                        let items = try await timeline.send(.latest(count: index), as: [String].self)
                        #expect(items == ["count=\(index)"])
                    }
                }
                try await group.waitForAll()
            }
        }
        await curl.shutdown()
        urlSession.shutdown()

        #expect(directoryWire.exchanges.count == 20)
        #expect(timelineWire.exchanges.count == 20)
        #expect(directoryWire.exchanges.allSatisfy { $0.context?.module == "Directory" })
        #expect(timelineWire.exchanges.allSatisfy { $0.context?.module == "Timeline" })
        let agents = sightings.agents.withLock { $0 }
        #expect(agents["Directory"]?.count == 20)
        #expect(agents["Directory"]?.allSatisfy { $0 == "swifty-curl" } == true)
        #expect(agents["Timeline"]?.count == 20)
        #expect(agents["Timeline"]?.contains("swifty-curl") == false)
    }

    @Test func aTestRebindsOneModuleToAMockWhileTheOtherStaysReal() async throws {
        let mock = MockTransport()
        mock.on(.operation("latest", module: "Timeline"), .json(200, #"["mocked"]"#))
        let curl = CurlTransport()
        try await withLoopbackServer(handler: { _ in .json(200, Profile(id: "real", name: "Real")) }) { server in
            let directory = try ServiceClient<DirectoryService>(baseURL: server.baseURL, transport: curl)
            let timeline = try ServiceClient<TimelineService>(baseURL: "https://timeline.test", transport: mock)
            async let profile = directory.send(.profile(id: "real"), as: Profile.self)
            async let items = timeline.send(.latest(count: 1), as: [String].self)
            #expect(try await profile.id == "real")
            #expect(try await items == ["mocked"])
        }
        await curl.shutdown()
        #expect(mock.requests.count == 1)
    }
}
