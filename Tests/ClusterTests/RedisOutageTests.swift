import Foundation
import HTTPTypes
import RedisTestSupport
import Testing

/// Redis stops under load: money stops moving, reads go on, and it all comes back by itself.
@Suite struct RedisOutageTests {
    @Test func paymentsFailClosedReadsGoOnAndServiceRecovers() async throws {
        try await Cluster.with(rateLimits: rateLimitsOff, redisArguments: ["--appendonly", "yes"]) { cluster in
            let client = ClusterClient()
            let bases = [cluster.daemonURL(1), cluster.daemonURL(2)]
            let before = try await client.balance(bases[0], of: "bob")
            var keys: [String] = []
            for index in 0..<4 {
                keys.append("before-\(index)")
                let answer = try await client.pay(
                    bases[index % 2], from: "bob", to: "alice", amountMinor: 10, key: keys[index])
                #expect(answer.status == 201, "\(answer.text)")
            }

            let reads = LoadLoop(concurrency: 2) { index in
                try await client.send(.get, bases[index % 2] + "/v1/users/carol", user: "alice").status
            }
            try await Task.sleep(for: .milliseconds(300))
            await cluster.redis.kill()

            for index in 0..<6 {
                let key = "during-\(index)"
                keys.append(key)
                let answer = try await client.pay(bases[index % 2], from: "bob", to: "alice", amountMinor: 10, key: key)
                #expect(answer.status == 503, "\(answer.status) \(answer.text)")
                #expect(answer.headers["Retry-After"] != nil)
                let read = try await client.send(.get, bases[index % 2] + "/v1/users/carol", user: "alice")
                #expect(read.status == 200, "\(read.status) \(read.text)")
            }

            try await cluster.redis.restart()
            // Each daemon and its sandbox set reconnect on their own (backoff at most 5 s apart):
            // wait until a payment goes through each of them.
            for (number, base) in bases.enumerated() {
                var recovered = false
                for attempt in 0..<120 where !recovered {
                    let key = "after-\(number)-\(attempt)"
                    let answer = try await client.pay(base, from: "bob", to: "alice", amountMinor: 10, key: key)
                    if answer.status == 201 {
                        keys.append(key)
                        recovered = true
                    } else {
                        // A 503 moved no money: the key is not charged and need not be sent again.
                        try await Task.sleep(for: .milliseconds(250))
                    }
                }
                #expect(recovered, "daemon \(number + 1) did not recover")
            }
            let load = await reads.stop()
            #expect(load.failures.isEmpty, "\(load.failures.prefix(3))")
            #expect(load.statuses.keys.allSatisfy { $0 == 200 }, "\(load.statuses)")

            // Every key sent again: charged at most once, whatever happened to it before.
            var charged = Set<String>()
            for (index, key) in keys.enumerated() {
                let answer = try await client.pay(bases[index % 2], from: "bob", to: "alice", amountMinor: 10, key: key)
                #expect(answer.status == 201, "\(key): \(answer.status) \(answer.text)")
                if let id = answer.json?["id"] as? String { charged.insert(id) }
            }
            #expect(charged.count == keys.count)
            let after = try await client.balance(bases[1], of: "bob")
            #expect(before - after == 10 * keys.count)
        }
    }
}
