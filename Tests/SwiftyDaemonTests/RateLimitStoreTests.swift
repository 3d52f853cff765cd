import ServiceTesting
import Testing

@testable import SwiftyDaemon

/// The in-memory store's GCRA: an idle client may send the quota at once, then one request per
/// `window / quota`; a refusal says when the next request would pass; memory stays bounded.
struct RateLimitStoreTests {
    static let fivePerSecond = RateLimitPolicy(name: "p", quota: 5, window: .seconds(1))

    @Test func anIdleClientMaySendTheQuotaAtOnceAndNoMore() async throws {
        let clock = VirtualClock()
        let store = InMemoryRateLimitStore(clock: clock)
        var remaining: [Int] = []
        for _ in 0..<5 {
            let decision = try await store.acquire("alice", policy: Self.fivePerSecond)
            #expect(decision.allowed)
            remaining.append(decision.remaining)
        }
        #expect(remaining == [4, 3, 2, 1, 0])
        let refused = try await store.acquire("alice", policy: Self.fivePerSecond)
        #expect(!refused.allowed)
        #expect(refused.remaining == 0)
        #expect(refused.retryAfter == .milliseconds(200))
        #expect(refused.resetAfter == .seconds(1))
        #expect(refused.retryAfterSeconds == 1)
    }

    @Test func theAllowanceComesBackOneRequestPerInterval() async throws {
        let clock = VirtualClock()
        let store = InMemoryRateLimitStore(clock: clock)
        for _ in 0..<5 { _ = try await store.acquire("alice", policy: Self.fivePerSecond) }
        clock.advance(by: .milliseconds(199))
        #expect(try await !store.acquire("alice", policy: Self.fivePerSecond).allowed)
        clock.advance(by: .milliseconds(1))
        let next = try await store.acquire("alice", policy: Self.fivePerSecond)
        #expect(next.allowed)
        #expect(next.remaining == 0)
        clock.advance(by: .seconds(10))
        #expect(try await store.acquire("alice", policy: Self.fivePerSecond).remaining == 4)
    }

    @Test func aRefusedRequestDoesNotUseTheAllowance() async throws {
        let clock = VirtualClock()
        let store = InMemoryRateLimitStore(clock: clock)
        for _ in 0..<5 { _ = try await store.acquire("alice", policy: Self.fivePerSecond) }
        for _ in 0..<50 { #expect(try await !store.acquire("alice", policy: Self.fivePerSecond).allowed) }
        clock.advance(by: .milliseconds(200))
        #expect(try await store.acquire("alice", policy: Self.fivePerSecond).allowed)
    }

    @Test func keysAreCountedApart() async throws {
        let store = InMemoryRateLimitStore(clock: VirtualClock())
        for _ in 0..<5 { _ = try await store.acquire("alice", policy: Self.fivePerSecond) }
        #expect(try await !store.acquire("alice", policy: Self.fivePerSecond).allowed)
        #expect(try await store.acquire("bob", policy: Self.fivePerSecond).allowed)
    }

    @Test func memoryIsBoundedAndWholeAllowancesAreForgotten() async throws {
        let clock = VirtualClock()
        let store = InMemoryRateLimitStore(clock: clock, capacity: 160)
        for index in 0..<1_000 { _ = try await store.acquire("user-\(index)", policy: Self.fivePerSecond) }
        #expect(store.count <= 160)
        #expect(store.untrackedAdmissions > 0)
        clock.advance(by: .seconds(2))
        for index in 0..<1_000 { _ = try await store.acquire("other-\(index)", policy: Self.fivePerSecond) }
        #expect(store.count <= 160)
    }

    @Test func theFieldsFollowTheDraftSyntax() {
        let decision = RateLimitDecision(
            allowed: true, remaining: 3, resetAfter: .milliseconds(1_400), retryAfter: nil)
        #expect(Self.fivePerSecond.policyField == #""p";q=5;w=1"#)
        #expect(decision.field(for: Self.fivePerSecond) == #""p";r=3;t=2"#)
    }

    @Test(arguments: [
        (0, 1, "quota"), (5, 0, "window"), (2_000_000, 1, "quota"), (5, 100_000, "window"),
    ])
    func badPoliciesAreNamed(quota: Int, seconds: Int, field: String) {
        let policy = RateLimitPolicy(name: "p", quota: quota, window: .seconds(seconds))
        #expect(policy.problem?.hasPrefix(field) == true)
    }
}
