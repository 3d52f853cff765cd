import Foundation
import HTTPFramingCorpus
import HTTPTypes
import RequestSigning
import SandboxUpstreams
import Testing

/// Signature nonces live in the shared Redis: a replica refuses what another one accepted.
@Suite struct ReplayAcrossReplicasTests {
    @Test func aSignedRequestAcceptedByOneReplicaIsRefusedAsReplayedByTheOther() async throws {
        try await Cluster.with { cluster in
            let key = try SigningKey.load(
                id: "payment-1", tag: SandboxService.payment.tag, fromFile: cluster.keysDirectory + "/payment-1.key")
            let first = try #require(URL(string: cluster.sandboxURL(1, "payment")))
            let second = try #require(URL(string: cluster.sandboxURL(2, "payment")))
            // Signed for the first replica's authority: the bytes a capture in flight would hold.
            let signed = try RequestSigner(key: key).sign(
                HTTPRequest(method: .get, url: first.appendingPathComponent("v1/wallets/alice")))
            var text = "GET /v1/wallets/alice HTTP/1.1\r\nHost: \(first.host ?? ""):\(first.port ?? 0)\r\n"
            for field in signed.headers.fields { text += "\(field.name): \(field.value)\r\n" }
            text += "Connection: close\r\n\r\n"

            let original = try RawConnection(port: first.port ?? 0)
            try original.send(text)
            let accepted = try original.readResponse()
            #expect(accepted.status == 200, "\(accepted.bodyText)")

            let replay = try RawConnection(port: second.port ?? 0)
            try replay.send(text)
            let refused = try replay.readResponse()
            #expect(refused.status == 401, "\(refused.bodyText)")
            #expect(refused.bodyText.contains("\"signature_replayed\""), "\(refused.bodyText)")
        }
    }
}
