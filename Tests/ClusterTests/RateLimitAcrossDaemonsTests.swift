import Foundation
import HTTPTypes
import Testing

/// One allowance per user for the fleet: the daemons count in Redis.
@Suite struct RateLimitAcrossDaemonsTests {
    @Test func aLimitOfNPerWindowHoldsAcrossBothDaemonsTogether() async throws {
        let limits = """
            {"reads": {"perUser": {"quota": 10, "windowSeconds": 600}, "perAddress": null}, \
            "writes": {"perUser": null, "perAddress": null}, "payments": {"perUser": null, "perAddress": null}}
            """
        try await Cluster.with(rateLimits: limits) { cluster in
            let client = ClusterClient()
            let bases = [cluster.daemonURL(1), cluster.daemonURL(2)]
            var statuses: [Int] = []
            // One at a time, alternating: each daemon alone would allow all 10 of its requests.
            for index in 0..<20 {
                let answer = try await client.send(.get, bases[index % 2] + "/v1/me", user: "carol")
                statuses.append(answer.status)
                if answer.status == 429 {
                    #expect(answer.headers["RateLimit"] != nil, "\(answer.headers)")
                }
            }
            #expect(statuses.filter { $0 == 200 }.count == 10, "\(statuses)")
            #expect(statuses.filter { $0 == 429 }.count == 10, "\(statuses)")
            // Another user has an allowance of their own.
            #expect(try await client.send(.get, bases[0] + "/v1/me", user: "bob").status == 200)
        }
    }
}
