import Foundation
import RequestSigning
import Synchronization
import Testing

/// How the verifier calls a replay guard: one way for every guard, with the key id and nonce,
/// the end of the signature's window, and a refusal for every answer but `fresh`.
struct ReplayGuardContractTests {
    /// A guard that answers what it is told and keeps what it was asked.
    final class ScriptedGuard: ReplayGuard {
        let answer: ReplayCheckResult
        private let calls = Mutex<[(nonce: ReplayNonce, expiresAt: Date, now: Date)]>([])

        init(answer: ReplayCheckResult) { self.answer = answer }

        var recorded: [(nonce: ReplayNonce, expiresAt: Date, now: Date)] { calls.withLock { $0 } }

        nonisolated(nonsending)
            func checkAndRemember(_ nonce: ReplayNonce, expiresAt: Date, now: Date) async -> ReplayCheckResult
        {
            calls.withLock { $0.append((nonce, expiresAt, now)) }
            return answer
        }
    }

    private func signed(lifetime: Duration? = nil) throws -> SignableMessage {
        var configuration = RequestSigner.Configuration()
        configuration.lifetime = lifetime
        return try Fixtures.received(Fixtures.signer(configuration: configuration).sign(Fixtures.postRequest()))
    }

    @Test func anUnavailableStoreIsRefusedWithItsOwnCode() async throws {
        let store = ScriptedGuard(answer: .storeUnavailable("redis at 127.0.0.1:1: connection refused"))
        let verifier = try Fixtures.verifier(replayGuard: store)
        let message = try signed()
        do {
            _ = try await verifier.verify(message)
            Issue.record("accepted a request whose nonce could not be checked")
        } catch {
            #expect(error.code == .replayStoreUnavailable)
            #expect(error.message.contains("redis at 127.0.0.1:1: connection refused"))
            #expect(error.keyID == "user-2026")
        }
        #expect(store.recorded.count == 1)
    }

    @Test func everyAnswerButFreshIsARefusal() async throws {
        let answers: [(ReplayCheckResult, SignatureVerificationError.Code?)] = [
            (.fresh, nil), (.replayed, .replayedNonce), (.capacityExceeded, .replayGuardFull),
            (.storeUnavailable("down"), .replayStoreUnavailable),
        ]
        for (answer, code) in answers {
            let verifier = try Fixtures.verifier(replayGuard: ScriptedGuard(answer: answer))
            let message = try signed()
            do {
                _ = try await verifier.verify(message)
                #expect(code == nil, "\(answer) was accepted")
            } catch {
                #expect(error.code == code, "\(answer)")
            }
        }
    }

    /// The guard gets the signature's key id and nonce, and is told to remember it only while
    /// the signature could be accepted: `created` + maximum age, or `expires` + skew when sooner.
    @Test func theGuardRemembersOnlyWhileTheSignatureIsAcceptable() async throws {
        let configuration = SignatureVerifier.Configuration(maximumAge: .seconds(300), allowedClockSkew: .seconds(30))
        let created = Fixtures.created.timeIntervalSince1970
        let cases: [(lifetime: Duration?, until: Double)] = [
            (nil, created + 300 + 1), (.seconds(60), created + 60 + 30 + 1), (.seconds(600), created + 300 + 1),
        ]
        for (lifetime, until) in cases {
            let store = ScriptedGuard(answer: .fresh)
            let verifier = try Fixtures.verifier(configuration: configuration, replayGuard: store)
            let verified = try await verifier.verify(try signed(lifetime: lifetime))
            let call = try #require(store.recorded.first)
            #expect(call.nonce == ReplayNonce(keyID: verified.keyID, nonce: try #require(verified.nonce)))
            #expect(call.nonce.keyID == "user-2026")
            #expect(call.expiresAt.timeIntervalSince1970 == until, "lifetime \(String(describing: lifetime))")
            #expect(call.now == Fixtures.created.addingTimeInterval(2))
            #expect(call.expiresAt.timeIntervalSince(call.now) <= Double(configuration.replayWindow.components.seconds))
        }
        #expect(configuration.replayWindow == .seconds(331))
    }

    @Test func aSignatureWithoutNonceIsNotRemembered() async throws {
        var signing = RequestSigner.Configuration()
        signing.includesNonce = false
        let store = ScriptedGuard(answer: .replayed)
        let verifier = try Fixtures.verifier(
            configuration: SignatureVerifier.Configuration(requiresNonce: false), replayGuard: store)
        _ = try await verifier.verify(
            try Fixtures.received(Fixtures.signer(configuration: signing).sign(Fixtures.postRequest())))
        #expect(store.recorded.isEmpty)
    }

    @Test func pairsAreTheSameOnlyWhenKeyAndNonceAre() {
        let pairs = [
            ("a:b", "c"), ("a", "b:c"), ("a\u{0}", "b"), ("a", "\u{0}b"), ("ab", ""), ("", "ab"),
            ("k", String(repeating: "n", count: 60)), ("k" + String(repeating: "n", count: 60), ""),
        ]
        for (index, pair) in pairs.enumerated() {
            let nonce = ReplayNonce(keyID: pair.0, nonce: pair.1)
            #expect(nonce.keyID == pair.0)
            #expect(nonce.nonce == pair.1)
            nonce.withUTF8 { keyID, nonceBytes in
                #expect(Array(keyID) == Array(pair.0.utf8))
                #expect(Array(nonceBytes) == Array(pair.1.utf8))
            }
            #expect(nonce == ReplayNonce(keyID: pair.0, nonce: pair.1))
            for (other, otherPair) in pairs.enumerated() where other != index {
                #expect(nonce != ReplayNonce(keyID: otherPair.0, nonce: otherPair.1), "\(pair) and \(otherPair)")
            }
        }
    }
}
