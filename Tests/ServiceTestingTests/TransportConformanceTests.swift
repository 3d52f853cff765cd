import Foundation
import HTTPTypes
import ServiceCore
import ServiceTesting
import Testing

/// The suite must reject transports that break the contract, or passing it would mean nothing.
struct TransportConformanceTests {
    @Test(arguments: TransportConformance.Check.allCases)
    func everyCheckRejectsATransportThatAnswers200ToEverything(_ check: TransportConformance.Check) async throws {
        let broken = MockTransport.alwaysOK()
        let failure = await #expect(throws: ConformanceFailure.self) {
            try await TransportConformance(transport: broken).run(check)
        }
        #expect(failure?.check == check)
    }

    @Test func aTransportThatIgnoresTheTimeoutFailsTheTimeoutCheck() async throws {
        let failure = await #expect(throws: ConformanceFailure.self) {
            let options = TransportConformance.Options(slowAnswer: .seconds(2))
            try await TransportConformance(transport: IgnoringTimeout(), options: options).run(.timeout)
        }
        #expect(failure?.message.contains("timed out") == true)
    }

    @Test func aTransportThatDropsRepeatedHeadersFailsThatCheck() async throws {
        let failure = await #expect(throws: ConformanceFailure.self) {
            try await TransportConformance(transport: DroppingRepeatedHeaders()).run(.repeatedResponseHeaders)
        }
        #expect(failure?.message.contains("X-Multi") == true)
    }

    @Test func runAllCollectsTheFailures() async {
        let failures = await TransportConformance(transport: MockTransport.alwaysOK()).runAll([.methods, .head])
        #expect(failures.count == 2)
    }
}

/// Answers in process but waits for the whole delay whatever the request's timeout.
private struct IgnoringTimeout: Transport {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var relaxed = request
        relaxed.timeout = nil
        return try await TransportConformance.answerInProcess(relaxed)
    }
}

/// Answers in process but keeps only the first field of each name.
private struct DroppingRepeatedHeaders: Transport {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var response = try await TransportConformance.answerInProcess(request)
        var seen: Set<String> = []
        response.headers = HTTPHeaders(response.headers.fields.filter { seen.insert($0.name.lowercased()).inserted })
        return response
    }
}
