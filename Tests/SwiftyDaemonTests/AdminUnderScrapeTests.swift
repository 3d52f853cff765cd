import Foundation
import HTTPTypes
import Synchronization
import Testing

/// The admin server keeps answering `/livez` and `/readyz` while `/metrics` is scraped without
/// pause by several scrapers at once.
@Suite(.timeLimit(.minutes(3)))
struct AdminUnderScrapeTests {
    @Test func probesAreAnsweredWhileMetricsAreScraped() async throws {
        let daemon = try await DaemonProcess.start()
        // Some app traffic first, so `/metrics` has routes and statuses to write.
        let app = AppClient(baseURL: daemon.baseURL)
        for path in ["/v1/me", "/v1/users/bob", "/v1/nowhere"] { _ = try await app.get(path) }

        let counters = ScrapeCounters()
        let adminURL = daemon.adminURL
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    // Each scraper on its own connections; bounded in count (and by the probes' end).
                    let scraper = AppClient(baseURL: adminURL)
                    for _ in 0..<2_000 where counters.probing.load(ordering: .relaxed) {
                        let answer = try? await scraper.get("/metrics", token: nil)
                        if answer?.status == 200 && answer?.text.contains("# TYPE") == true {
                            counters.scrapes.add(1, ordering: .relaxed)
                        } else {
                            counters.failed.add(1, ordering: .relaxed)
                        }
                    }
                }
            }
            let prober = AppClient(baseURL: adminURL)
            // Wait (bounded) until scraping is under way, so the probes overlap it.
            for _ in 0..<400 where counters.scrapes.load(ordering: .relaxed) < 8 {
                try await Task.sleep(for: .milliseconds(25))
            }
            let before = counters.scrapes.load(ordering: .relaxed)
            for _ in 0..<40 {
                let live = try await prober.send(.get, "/livez", token: nil, timeout: .seconds(10))
                #expect(live.status == 200)
                let ready = try await prober.send(.get, "/readyz", token: nil, timeout: .seconds(10))
                #expect(ready.status == 200)
            }
            let during = counters.scrapes.load(ordering: .relaxed) - before
            counters.probing.store(false, ordering: .relaxed)
            try await group.waitForAll()
            #expect(during > 0, "the probes must overlap scrapes")
        }
        #expect(counters.failed.load(ordering: .relaxed) == 0)
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(limit: .seconds(20)) == 0)
    }
}

/// What the scrapers and the prober share.
private final class ScrapeCounters: Sendable {
    /// Scrapes answered with metrics.
    let scrapes = Atomic<Int>(0)
    /// Scrapes that failed or answered anything else.
    let failed = Atomic<Int>(0)
    /// Cleared when the probes are done, to stop the scrapers.
    let probing = Atomic<Bool>(true)
}
