import CurlTransport
import Foundation
import HTTPTypes
import RequestSigning
import SandboxUpstreams
import ServiceCore
import Testing

/// A scripted upstream: signed like the others, it answers its scripted answers for any
/// well-formed id, refuses malformed ids and unsigned or wrongly signed requests, and knows
/// nothing else.
@Suite(.timeLimit(.minutes(1)))
struct ScriptedUpstreamTests {
    struct Item: Codable, Equatable {
        var id: String
        var name: String
    }

    static let answers = [
        ScriptedAnswer(module: "InventoryModule", "GET", "/v1/items/:id") { Item(id: $0["id"] ?? "", name: "Sample") },
        ScriptedAnswer(module: "InventoryModule", "PUT", "/v1/items/:id/holds/:hold", status: 201) {
            ["item": $0["id"] ?? "", "hold": $0["hold"] ?? ""]
        },
        ScriptedAnswer(module: "OtherModule", "GET", "/v1/other") { _ in ["other": true] },
    ]

    /// Runs `body` with a sandbox holding one scripted upstream, and a transport.
    func withScripted(
        _ body: (SandboxUpstreams, ScriptedUpstream, CurlTransport) async throws -> Void
    ) async throws {
        let upstream = try ScriptedUpstream(
            module: "InventoryModule", keyID: "inventory-1", tag: "InventoryModule", answers: Self.answers)
        let sandbox = try await SandboxUpstreams.start(
            keys: SandboxKeys.generate(), configuration: SandboxFixture.quietConfiguration(), scripted: [upstream])
        let transport = CurlTransport()
        do {
            try await body(sandbox, upstream, transport)
        } catch {
            Issue.record(error)
        }
        await transport.shutdown()
        await sandbox.shutdown(gracePeriod: .seconds(1))
    }

    func request(_ sandbox: SandboxUpstreams, _ method: HTTPMethod, _ target: String) throws -> HTTPRequest {
        let base = try #require(sandbox.baseURLString(forModule: "InventoryModule"))
        return HTTPRequest(method: method, url: try #require(URL(string: base + target)), timeout: .seconds(10))
    }

    @Test func answersForAnyWellFormedID() async throws {
        try await withScripted { sandbox, upstream, transport in
            let signer = try RequestSigner(key: upstream.key)
            #expect(sandbox.signingKey(forModule: "InventoryModule")?.id == "inventory-1")
            #expect(upstream.answers.count == 2, "answers of other modules are left out")
            for (raw, id) in [("i1", "i1"), ("a%2Fb%20%C3%A9", "a/b é"), (String(repeating: "x", count: 128), nil)] {
                let response = try await transport.send(signer.sign(request(sandbox, .get, "/v1/items/\(raw)")))
                #expect(response.status == 200)
                #expect(response.headers["Content-Type"] == "application/json")
                let item = try JSONDecoder().decode(Item.self, from: response.body)
                #expect(item == Item(id: id ?? raw, name: "Sample"))
            }
            let hold = try await transport.send(signer.sign(request(sandbox, .put, "/v1/items/i1/holds/h2")))
            #expect(hold.status == 201)
            #expect(String(decoding: hold.body, as: UTF8.self) == #"{"hold":"h2","item":"i1"}"#)
        }
    }

    @Test func refusesMalformedIDsAndUnknownPaths() async throws {
        try await withScripted { sandbox, upstream, transport in
            let signer = try RequestSigner(key: upstream.key)
            for (target, status, code) in [
                ("/v1/items/%2E%2E", 400, "invalid_request"),
                ("/v1/items/\(String(repeating: "x", count: 129))", 400, "invalid_request"),
                ("/v1/other", 404, "not_found"), ("/v1/items", 404, "not_found"),
            ] {
                let response = try await transport.send(signer.sign(request(sandbox, .get, target)))
                #expect(response.status == status, "\(target)")
                #expect(problem(of: response)?.code == code, "\(target)")
            }
            let delete = try await transport.send(signer.sign(request(sandbox, .delete, "/v1/items/i1")))
            #expect(delete.status == 405)
            #expect(delete.headers["Allow"]?.contains("GET") == true)
        }
    }

    @Test func refusesWhatIsNotSignedWithTheModulesKey() async throws {
        try await withScripted { sandbox, _, transport in
            let unsigned = try await transport.send(request(sandbox, .get, "/v1/items/i1"))
            #expect(unsigned.status == 401)
            #expect(problem(of: unsigned)?.code == "signature_missing")
            let userKey = sandbox.keys.user.signingKey
            let foreign = try await transport.send(
                RequestSigner(key: userKey).sign(request(sandbox, .get, "/v1/items/i1")))
            #expect(foreign.status == 401)
            #expect(problem(of: foreign)?.code == "key_unknown")
        }
    }

    @Test func faultsApplyToScriptedUpstreams() async throws {
        try await withScripted { sandbox, upstream, transport in
            try sandbox.setFaults(FaultSettings(errorRate: 1))
            let response = try await transport.send(
                RequestSigner(key: upstream.key).sign(request(sandbox, .get, "/v1/items/i1")))
            #expect(response.status == 503)
            #expect(response.headers["X-Sandbox-Fault"] == "error")
        }
    }

    @Test func modulesWithoutAnUpstreamHaveNoURL() async throws {
        try await withScripted { sandbox, _, _ in
            #expect(sandbox.baseURLString(forModule: "GhostModule") == nil)
            #expect(sandbox.signingKey(forModule: "GhostModule") == nil)
            #expect(sandbox.baseURLString(forModule: "UserModule") == sandbox.baseURLString(for: .user))
            #expect(sandbox.signingKey(forModule: "FeedModule")?.id == "feed-1")
        }
    }

    @Test func anInvalidKeyIDIsRefused() throws {
        #expect(throws: SandboxError.self) {
            try ScriptedUpstream(module: "InventoryModule", keyID: "", tag: "InventoryModule", answers: [])
        }
    }
}
