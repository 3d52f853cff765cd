import Foundation
import HTTPTypes
import ServiceCore
import Testing

/// The RFC 9457 problem body: lenient decoding of partial bodies, the one-line description, and
/// its place in a failed call's error.
struct ProblemDetailsTests {
    static func decode(_ json: String) throws -> ProblemDetails {
        try JSONDecoder().decode(ProblemDetails.self, from: Data(json.utf8))
    }

    @Test
    func everyMemberDecodes() throws {
        let envelope = try Self.decode(
            #"{"type":"https://e.test/p/nf","title":"Not Found","status":404,"detail":"no user x","code":"not_found"}"#)
        #expect(
            envelope
                == ProblemDetails(
                    type: "https://e.test/p/nf", title: "Not Found", status: 404, detail: "no user x", code: "not_found"
                )
        )
    }

    @Test(arguments: [
        ("{}", ProblemDetails(title: nil, status: nil)),
        (#"{"title":"Unauthorized","status":401}"#, ProblemDetails(title: "Unauthorized", status: 401)),
        (#"{"status":503,"extra":{"retry":true}}"#, ProblemDetails(title: nil, status: 503)),
        (#"{"code":"x","title":null,"status":null}"#, ProblemDetails(title: nil, status: nil, code: "x")),
        (#"{"type":"urn:p","detail":"d"}"#, ProblemDetails(type: "urn:p", title: nil, status: nil, detail: "d")),
    ])
    func partialBodiesDecodeWithWhatIsPresent(_ json: String, _ expected: HTTPTypes.ProblemDetails) throws {
        let envelope = try Self.decode(json)
        #expect(envelope == expected)
    }

    @Test
    func aMissingTypeIsAboutBlank() throws {
        #expect(try Self.decode(#"{"status":500}"#).type == "about:blank")
        #expect(ProblemDetails(title: nil, status: nil).type == "about:blank")
    }

    @Test(arguments: [#"{"status":"404"}"#, #"{"title":7}"#, "[]", #""text""#, "<html>"])
    func wrongShapesFail(_ json: String) {
        #expect(throws: (any Error).self) { try Self.decode(json) }
    }

    @Test(arguments: [
        (
            ProblemDetails(title: "Not Found", status: 404, detail: "no user x", code: "not_found"),
            "404 not_found: no user x"
        ),
        (ProblemDetails(title: "Not Found", status: 404, detail: "no user x"), "404 Not Found: no user x"),
        (ProblemDetails(title: "Not Found", status: 404), "404 Not Found"),
        (ProblemDetails(title: nil, status: nil, detail: "only detail"), "only detail"),
        (ProblemDetails(title: nil, status: 500), "500"),
        (ProblemDetails(title: nil, status: nil), ""),
    ])
    func describesItselfInOneLine(_ envelope: HTTPTypes.ProblemDetails, _ description: String) {
        #expect(envelope.description == description)
    }

    @Test
    func encodingKeepsTheMembersPresent() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(ProblemDetails(title: "Gone", status: 410))
        #expect(String(decoding: data, as: UTF8.self) == #"{"status":410,"title":"Gone","type":"about:blank"}"#)
        #expect(
            try JSONDecoder().decode(ProblemDetails.self, from: data) == ProblemDetails(title: "Gone", status: 410))
    }

    @Test
    func aFailedCallCarriesTheEnvelope() async throws {
        let transport = ClosureTransport { _ in
            HTTPResponse(
                status: 404,
                headers: ["Content-Type": "application/problem+json"],
                body: Data(#"{"title":"Not Found","status":404,"code":"not_found"}"#.utf8)
            )
        }
        let client = try ServiceClient<CatalogService>(baseURL: "https://h.example.test", transport: transport)
        let error = try await #require(throws: ServiceError.self) { try await client.send(.item(id: "i9")) }
        #expect(error.code == .unacceptableStatus)
        #expect(
            error.envelope(as: ProblemDetails.self)
                == ProblemDetails(title: "Not Found", status: 404, code: "not_found"))
        #expect(error.description.hasSuffix("; upstream error: 404 not_found"))
    }
}
