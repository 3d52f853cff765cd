import FeedModule
import Foundation
import PaymentModule
import RequestSigning
import SandboxUpstreams
import ServiceCore
import Testing
import UserModule

/// Starting, addressing and stopping the upstreams, and their keys.
@Suite(.timeLimit(.minutes(1)))
struct SandboxLifecycleTests {
    @Test func servicesCarryTheModulesIdentities() {
        #expect(SandboxService.user.moduleName == UserModuleIdentity.name)
        #expect(SandboxService.user.tag == UserModuleIdentity.tag)
        #expect(SandboxService.user.defaultKeyID == UserModuleIdentity.keyID)
        #expect(SandboxService.feed.tag == FeedModuleIdentity.tag)
        #expect(SandboxService.feed.defaultKeyID == FeedModuleIdentity.keyID)
        #expect(SandboxService.payment.tag == PaymentModuleIdentity.tag)
        #expect(SandboxService.payment.defaultKeyID == PaymentModuleIdentity.keyID)
    }

    @Test func generatedKeysAreFreshAndRedacted() throws {
        let first = try SandboxKeys.generate()
        let second = try SandboxKeys.generate()
        for service in SandboxService.allCases {
            #expect(first[service].keyID == service.defaultKeyID)
            #expect(first[service].tag == service.tag)
            #expect(first[service].signingKey.tag == service.tag)
            #expect(first[service].description.contains("<redacted>"))
        }
        // Different keys sign the same bytes differently.
        let bytes = Array("same message".utf8)
        let macs = try [first.user, first.feed, first.payment, second.user].map {
            try $0.signingKey.secret.authenticationCode(for: bytes)
        }
        #expect(Set(macs).count == 4)
        let custom = try SandboxKeys.generate(keyIDs: [.feed: "feed-2026"])
        #expect(custom.feed.keyID == "feed-2026")
        #expect(throws: SandboxError.self) { try SandboxKey(service: .user, secret: [UInt8](repeating: 1, count: 16)) }
        #expect(throws: SandboxError.self) {
            try SandboxKeys(user: first.feed, feed: first.feed, payment: first.payment)
        }
    }

    @Test func keysWrittenToADirectoryLoadAndVerify() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sandbox-keys-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let keys = try SandboxKeys.generate()
        try keys.write(toDirectory: directory)
        for service in SandboxService.allCases {
            let path = (directory as NSString).appendingPathComponent("\(service.defaultKeyID).key")
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.hasSuffix("\n") && text.split(separator: "\n").count == 1)
        }
        let loaded = try SandboxKeys.load(fromDirectory: directory)
        #expect(throws: SandboxError.self) { try loaded.write(toDirectory: directory) }
        // The upstreams verify with the generated keys; the client signs with the loaded ones.
        let fixture = try await SandboxFixture.start(keys: keys)
        do {
            let users = try fixture.users(fixture.middlewares(for: .user, key: loaded.user.signingKey))
            #expect(try await users.profile(id: "alice").id == "alice")
            let payments = try fixture.payments(fixture.middlewares(for: .payment, key: loaded.payment.signingKey))
            #expect(try await payments.wallet(user: "alice").userId == "alice")
        } catch {
            Issue.record(error)
        }
        await fixture.shutdown()
    }

    @Test func missingOrBadKeyFilesAreNamed() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sandbox-keys-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect {
            try SandboxKeys.load(fromDirectory: directory)
        } throws: { error in
            guard let error = error as? SandboxError else { return false }
            return error.code == .keyFile && error.message.contains("user-1.key")
        }
        try SandboxKeys.generate().write(toDirectory: directory)
        let feedPath = (directory as NSString).appendingPathComponent("feed-1.key")
        try "c2hvcnQ=\n".write(toFile: feedPath, atomically: true, encoding: .utf8)
        #expect {
            try SandboxKeys.load(fromDirectory: directory)
        } throws: { error in
            guard let error = error as? SandboxError else { return false }
            return error.service == .feed && error.message.contains("feed-1.key") && !error.message.contains("c2hvcnQ")
        }
    }

    @Test func eachUpstreamHasItsOwnPortAndStops() async throws {
        let fixture = try await SandboxFixture.start()
        let ports = SandboxService.allCases.map { fixture.sandbox.port(for: $0) }
        #expect(Set(ports).count == 3)
        #expect(ports.allSatisfy { $0 > 0 })
        for service in SandboxService.allCases {
            #expect(
                fixture.sandbox.baseURLString(for: service) == "http://127.0.0.1:\(fixture.sandbox.port(for: service))")
            #expect(fixture.sandbox.baseURL(for: service).port == fixture.sandbox.port(for: service))
        }
        let users = try fixture.users()
        _ = try await users.profile(id: "alice")
        await fixture.sandbox.shutdown(gracePeriod: .seconds(1))
        #expect(fixture.sandbox.port(for: .user) == 0)
        await #expect(throws: ServiceError.self) { _ = try await users.profile(id: "alice") }
        await fixture.sandbox.shutdown()  // again: nothing happens
        await fixture.shutdown()
    }

    @Test func aTakenPortFailsTheStartAndStopsTheOthers() async throws {
        let first = try await SandboxFixture.start()
        var configuration = SandboxFixture.quietConfiguration()
        configuration.paymentPort = first.sandbox.port(for: .user)
        await #expect {
            _ = try await SandboxUpstreams.start(keys: SandboxKeys.generate(), configuration: configuration)
        } throws: { error in
            (error as? SandboxError)?.code == .startFailed && (error as? SandboxError)?.service == .payment
        }
        await first.shutdown()
    }

    @Test func startsFromFixedPorts() async throws {
        // Ask the kernel for free ports through a first start, then reuse them.
        let probe = try await SandboxFixture.start()
        let ports = SandboxService.allCases.map { probe.sandbox.port(for: $0) }
        await probe.shutdown()
        var configuration = SandboxFixture.quietConfiguration()
        configuration.userPort = ports[0]
        configuration.feedPort = ports[1]
        configuration.paymentPort = ports[2]
        let fixture = try await SandboxFixture.start(configuration: configuration)
        #expect(SandboxService.allCases.map { fixture.sandbox.port(for: $0) } == ports)
        await fixture.shutdown()
    }
}
