import Foundation
import HTTPTypes
import Testing

/// Payments through both daemons and both payment replicas, one ledger in Redis.
@Suite struct PaymentsAcrossDaemonsTests {
    @Test func twoHundredConcurrentPaymentsWithOneKeyChargeOnce() async throws {
        try await Cluster.with(rateLimits: rateLimitsOff) { cluster in
            let client = ClusterClient()
            let bases = [cluster.daemonURL(1), cluster.daemonURL(2)]
            let before = try await client.balance(bases[0], of: "bob")
            let key = "one-key-\(UUID().uuidString)"
            let answers = try await withThrowingTaskGroup(of: ClusterClient.Answer.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        try await client.pay(bases[index % 2], from: "bob", to: "carol", amountMinor: 100, key: key)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.count == 200)
            for answer in answers {
                #expect(answer.status == 201, "\(answer.status) \(answer.text)")
            }
            let ids = Set(answers.compactMap { $0.json?["id"] as? String })
            #expect(ids.count == 1, "payments: \(ids)")
            #expect(answers.filter { $0.headers["Idempotent-Replayed"] == "true" }.count == 199)
            let after = try await client.balance(bases[1], of: "bob")
            #expect(before - after == 100)
        }
    }

    @Test func concurrentPaymentsAboveTheBalanceNeverOverdraw() async throws {
        try await Cluster.with(rateLimits: rateLimitsOff) { cluster in
            let client = ClusterClient()
            let bases = [cluster.daemonURL(1), cluster.daemonURL(2)]
            let before = try await client.balance(bases[0], of: "carol")
            // 100 payments of 1/50 of the balance each: twice what the wallet holds.
            let amount = max(1, before / 50)
            let answers = try await withThrowingTaskGroup(of: ClusterClient.Answer.self) { group in
                for index in 0..<100 {
                    group.addTask {
                        try await client.pay(
                            bases[index % 2], from: "carol", to: "alice", amountMinor: amount, key: "spend-\(index)")
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let accepted = answers.filter { $0.status == 201 }
            for answer in answers where answer.status != 201 {
                #expect(answer.status == 422 && answer.code == "insufficient_funds", "\(answer.status) \(answer.text)")
            }
            let after = try await client.balance(bases[1], of: "carol")
            #expect(after >= 0)
            #expect(before - after == accepted.count * amount)
            #expect(accepted.count == before / amount)
        }
    }
}
