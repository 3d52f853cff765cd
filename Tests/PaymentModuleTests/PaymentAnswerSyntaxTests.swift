import Foundation
import PaymentModule
import ServiceCore
import ServiceTesting
import Testing

/// Upstream answers are read with the app input's syntax rules (one value for the same bytes,
/// whoever reads them), while members the module does not know are ignored, as the upstream
/// contract promises upstreams.
struct PaymentAnswerSyntaxTests {
    static func wallet(answer: [UInt8]) async throws -> Wallet {
        let transport = MockTransport.always(
            .response(HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(answer))))
        return try await PaymentClientTests.client(transport).wallet(user: "alice")
    }

    @Test func unknownMembersAreIgnored() async throws {
        let wallet = try await Self.wallet(
            answer: Array(
                #"{"userId":"alice","tier":"gold","balance":{"amountMinor":5,"currency":"EUR","fx":null}}"#.utf8))
        #expect(wallet.balance.amountMinor == 5)
    }

    @Test(arguments: [
        Array(#"{"userId":"alice","userId":"bob","balance":{"amountMinor":5,"currency":"EUR"}}"#.utf8),
        Array(#"{"userId":"alice","balance":{"amountMinor":5.0,"currency":"EUR"}}"#.utf8),
        Array(#"{"userId":"alice","balance":{"amountMinor":5e0,"currency":"EUR"}}"#.utf8),
        Array(#"{"userId":"alice","balance":{"amountMinor":9223372036854775808,"currency":"EUR"}}"#.utf8),
        [0xEF, 0xBB, 0xBF] + Array(#"{"userId":"alice","balance":{"amountMinor":5,"currency":"EUR"}}"#.utf8),
        Array(#"{"userId":"al"#.utf8) + [0xFF] + Array(#"ice","balance":{"amountMinor":5,"currency":"EUR"}}"#.utf8),
    ])
    func questionableAnswersAreRefused(_ answer: [UInt8]) async throws {
        let error = try await #require(throws: ServiceError.self) { try await Self.wallet(answer: answer) }
        #expect(error.code == .decoding)
    }
}
