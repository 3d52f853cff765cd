import Foundation
import Testing

/// The built `swiftyd` runs on mimalloc, and says so.
@Suite(.timeLimit(.minutes(3)))
struct DaemonAllocatorTests {
    @Test func theDaemonRunsOnMimallocAndLogsIt() async throws {
        let daemon = try await DaemonProcess.start()
        // Read to the end: procfs reports a size of 0, which a whole-file read may trust.
        let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/\(daemon.pid)/maps"))
        let maps = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
        try file.close()
        #expect(maps.contains("libmimalloc.so"))
        let ready = try #require(daemon.log.split(separator: "\n").first { $0.contains("\"msg\":\"ready\"") })
        #expect(ready.contains("\"allocator\":\"mimalloc 2."))
        // The daemon still serves: mimalloc owns every block the runtime, libcurl and OpenSSL use.
        let app = AppClient(baseURL: daemon.baseURL)
        for _ in 0..<20 {
            #expect(try await app.get("/v1/users/bob").status == 200)
        }
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(limit: .seconds(20)) == 0)
    }
}
