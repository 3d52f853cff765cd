import Foundation
import HTTPServer
import HTTPTypes
import JSON
import Testing

@testable import SwiftyDaemon

/// App request bodies are read strictly: one reading of a body, whatever parser a proxy or a log
/// reader in front uses; every refusal is a 4xx problem that says what is wrong.
struct AppBodyTests {
    static func request(_ body: [UInt8], contentType: String? = "application/json") -> ServerRequest {
        var request = ServerRequest(method: "POST", target: "/v1/payments")
        if let contentType { request.headers["Content-Type"] = contentType }
        request.body = Data(body)
        return request
    }

    static func payment(_ json: String, contentType: String? = "application/json") -> Result<
        CreatePaymentBody, AppProblemResponse
    > {
        AppBody.decode(CreatePaymentBody.self, from: request(Array(json.utf8), contentType: contentType))
    }

    @Test func aWellFormedBodyDecodes() throws {
        let body = try Self.payment(#"{"payee":"bob","amountMinor":100,"currency":"EUR","memo":"tea"}"#).get()
        #expect(body.payee == "bob")
        #expect(body.amountMinor == 100)
        #expect(body.memo == "tea")
    }

    @Test(arguments: [
        (#"{"payee":"bob","payee":"eve","amountMinor":100,"currency":"EUR"}"#, "payee"),
        (#"{"payee":"bob","amountMinor":1e2,"currency":"EUR"}"#, "amountMinor"),
        (#"{"payee":"bob","amountMinor":100.0,"currency":"EUR"}"#, "amountMinor"),
        (#"{"payee":"bob","amountMinor":9223372036854775808,"currency":"EUR"}"#, "amountMinor"),
        (#"{"payee":"bob","amountMinor":100,"currency":"EUR","memo":null}"#, "memo"),
        (#"{"payee":"bob","amountMinor":100,"currency":"EUR","amount":5}"#, "amount"),
        (#"{"payee":"bob","amountMinor":"100","currency":"EUR"}"#, "amountMinor"),
    ])
    func questionableMembersAreRefusedNamingTheField(_ json: String, _ field: String) throws {
        guard case .failure(let refusal) = Self.payment(json) else {
            Issue.record("accepted \(json)")
            return
        }
        #expect(refusal.problem.status == 400)
        #expect(refusal.problem.detail.contains(field), "\(refusal.problem.detail)")
    }

    @Test func nullAttachmentsAreRefused() {
        let request = Self.request(Array(#"{"text":"hi","attachments":null}"#.utf8))
        guard case .failure(let refusal) = AppBody.decode(CreatePostBody.self, from: request) else {
            Issue.record("null attachments accepted")
            return
        }
        #expect(refusal.problem.status == 400)
        #expect(refusal.problem.detail.contains("attachments"))
    }

    @Test(arguments: [
        [0xEF, 0xBB, 0xBF] + Array(#"{"payee":"bob","amountMinor":1,"currency":"EUR"}"#.utf8),
        Array(#"{"payee":"b"#.utf8) + [0xC3, 0x28] + Array(#"","amountMinor":1,"currency":"EUR"}"#.utf8),
        Array(#"{"payee":"\ud800","amountMinor":1,"currency":"EUR"}"#.utf8),
    ])
    func malformedTextIsRefused(_ bytes: [UInt8]) {
        guard case .failure(let refusal) = AppBody.decode(CreatePaymentBody.self, from: Self.request(bytes)) else {
            Issue.record("accepted \(bytes)")
            return
        }
        #expect(refusal.problem.status == 400)
    }

    @Test(
        arguments: [
            ("application/json", true), ("Application/JSON", true), ("application/json; charset=utf-8", true),
            ("application/json ;charset=UTF-8", true), ("application/jsonx", false), ("application/json-seq", false),
            ("text/json", false), ("application/problem+json", false), (nil, false),
        ] as [(String?, Bool)])
    func onlyApplicationJSONIsTaken(_ contentType: String?, _ accepted: Bool) {
        let result = Self.payment(#"{"payee":"bob","amountMinor":1,"currency":"EUR"}"#, contentType: contentType)
        switch result {
        case .success: #expect(accepted)
        case .failure(let refusal):
            #expect(!accepted)
            #expect(refusal.problem.status == 415)
        }
    }
}

/// A problem's body is the JSON the streaming encoder makes of its document (the oracle), member
/// for member.
struct AppProblemBodyTests {
    static let problems: [ProblemDetails] = [
        AppProblem(401, "This endpoint needs an Authorization: Bearer token.").details,
        AppProblem(503, "The \"feed\" module\nfailed.", code: "upstream_unavailable", module: "FeedModule").details,
        ProblemDetails(title: nil, status: nil),
        ProblemDetails(type: "https://x.example/p", title: "T", status: 418, detail: "é😀\u{1}", code: "c"),
        ProblemDetails(
            status: 409, detail: "",
            extensions: [.init(name: "requestId", value: "r-1"), .init(name: "a\"b", value: "\\")]),
    ]

    @Test(arguments: problems.indices)
    func theBodyIsWhatTheStreamingEncoderWrites(index: Int) throws {
        let details = Self.problems[index]
        #expect(AppProblem.body(of: details) == (try StreamingJSONEncoder().encode(details)))
    }
}
