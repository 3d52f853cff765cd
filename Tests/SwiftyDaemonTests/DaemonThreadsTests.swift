import EventLoops
import Foundation
import HTTPServer
import Testing

/// Without `threads`, the daemon runs one network thread per CPU it may run on, not per core.
@Suite(.timeLimit(.minutes(3)))
struct DaemonThreadsTests {
    @Test func pinnedToOneCPUTheDaemonRunsOneNetworkThread() async throws {
        let cpu = try #require(CPUAffinity.allowedCPUs()?.first)
        let daemon = try await DaemonProcess.start(launcher: ["/usr/bin/taskset", "-c", String(cpu)])
        let ready = try #require(daemon.log.split(separator: "\n").first { $0.contains("\"msg\":\"ready\"") })
        #expect(ready.contains("\"threads\":\"1\""), "ready line: \(ready)")
        // The pinned daemon and its in-process sandbox upstreams serve as usual, the upstreams
        // on a loop of their own.
        let app = AppClient(baseURL: daemon.baseURL)
        for _ in 0..<10 {
            #expect(try await app.get("/v1/home").status == 200)
        }
        let threads = Self.threadNames(of: daemon.pid)
        #expect(threads.filter { $0.hasPrefix("sandbox-") } == ["sandbox-0"], "threads: \(threads)")
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(limit: .seconds(20)) == 0)
    }

    /// The names of a process's threads, from `/proc`.
    private static func threadNames(of pid: Int32) -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.compactMap { task in
            (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    @Test func unpinnedTheDaemonRunsOneNetworkThreadPerAllowedCPU() async throws {
        // The test process is not pinned by the suite, so the child inherits the same mask.
        let expected = HTTPServer.Configuration.defaultThreadCount
        let daemon = try await DaemonProcess.start()
        let ready = try #require(daemon.log.split(separator: "\n").first { $0.contains("\"msg\":\"ready\"") })
        #expect(ready.contains("\"threads\":\"\(expected)\""), "ready line: \(ready)")
        #expect(try await AppClient(baseURL: daemon.baseURL).get("/v1/users/bob").status == 200)
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(limit: .seconds(20)) == 0)
    }
}
