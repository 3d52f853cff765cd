import Foundation
import JSON
import Testing

@testable import SwiftyDaemon

/// The `rateLimits` configuration: defaults, overrides, `null` to turn a limit off, problems named.
struct RateLimitSettingsTests {
    static func decode(_ json: String) throws -> RateLimitSettings {
        try StreamingJSONDecoder().decode(RateLimitSettings.self, from: Data(json.utf8))
    }

    @Test func paymentsAreLimitedPerUserByDefault() {
        let settings = RateLimitSettings()
        #expect(settings.payments.perUser == RateLimitPolicy(name: "payments-user", quota: 5, window: .seconds(1)))
        #expect(settings.payments.perAddress == nil)
        #expect(settings.reads == .none)
        #expect(settings.writes == .none)
        #expect(settings.problems.isEmpty)
    }

    @Test func givenMembersReplaceTheDefaultsAndOthersStay() throws {
        let settings = try Self.decode(
            #"{"payments": {"perAddress": {"quota": 20, "windowSeconds": 2}}, "reads": {"perUser": {"quota": 100, "windowSeconds": 1}}}"#
        )
        #expect(settings.payments.perUser?.quota == 5)
        #expect(
            settings.payments.perAddress == RateLimitPolicy(name: "payments-address", quota: 20, window: .seconds(2)))
        #expect(settings.reads.perUser == RateLimitPolicy(name: "reads-user", quota: 100, window: .seconds(1)))
        #expect(settings.writes == .none)
    }

    @Test func nullTurnsALimitOff() throws {
        #expect(try Self.decode(#"{"payments": {"perUser": null}}"#).payments == .none)
    }

    @Test(arguments: [
        #"{"payment": {}}"#, #"{"payments": {"perUsers": null}}"#,
        #"{"payments": {"perUser": {"quota": 5, "window": 1}}}"#, #"{"payments": {"perUser": {"quota": 5}}}"#,
    ])
    func unknownOrMissingMembersAreRefused(_ json: String) {
        #expect(throws: (any Error).self) { try Self.decode(json) }
    }

    @Test func badValuesAreNamed() throws {
        let settings = try Self.decode(
            #"{"writes": {"perAddress": {"quota": 0, "windowSeconds": 1}}, "storeCapacity": 1}"#)
        #expect(settings.problems.contains { $0.hasPrefix("rateLimits.writes.perAddress: quota") })
        #expect(settings.problems.contains { $0.hasPrefix("rateLimits.storeCapacity") })
    }
}

extension RateLimitSettingsTests {
    @Test func settingsReadBackAsWritten() throws {
        var settings = RateLimitSettings()
        settings.reads.perAddress = RateLimitPolicy(name: "reads-address", quota: 50, window: .seconds(3))
        settings.storeCapacity = 1_000
        let text = try StreamingJSONEncoder().encode(settings)
        #expect(try StreamingJSONDecoder().decode(RateLimitSettings.self, from: text) == settings)
    }
}
