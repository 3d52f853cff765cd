import Foundation
import RequestSigning
import Synchronization

/// A signature verifier whose trusted keys can be replaced while requests are being verified:
/// each verification reads the verifier in use with one atomic load, and a replacement keeps
/// the checks' settings, the clock and the replay guard (the same object, so a nonce seen
/// before the swap is still refused after it).
///
/// Every verifier installed stays allocated for the life of the upstream: a request may hold
/// the address it loaded just before a swap, and key rings are replaced rarely (a signal).
final class SwappableVerifier: Sendable {
    private final class Box: Sendable {
        let verifier: SignatureVerifier
        init(_ verifier: SignatureVerifier) { self.verifier = verifier }
    }

    /// The address of the box in use (an `Unmanaged` opaque pointer's bits).
    private let current: Atomic<UInt>
    private let installed: Mutex<[Box]>
    private let clock: @Sendable () -> Date

    init(_ verifier: SignatureVerifier, clock: @escaping @Sendable () -> Date) {
        let box = Box(verifier)
        current = Atomic(Self.address(of: box))
        installed = Mutex([box])
        self.clock = clock
    }

    /// The verifier in use now.
    var verifier: SignatureVerifier { box.verifier }

    /// Verifies with the verifier in use now.
    func verify(_ message: SignableMessage) async throws(SignatureVerificationError) -> VerifiedSignature {
        try await box.verifier.verify(message)
    }

    /// A verifier trusting `keyRing`, with the settings, clock and replay guard of the one in
    /// use; ``install(_:)`` makes it current.
    func verifier(trusting keyRing: KeyRing) -> SignatureVerifier {
        let now = box.verifier
        return SignatureVerifier(
            keyRing: keyRing, configuration: now.configuration, replayGuard: now.replayGuard, clock: clock)
    }

    /// Makes `verifier` the one used from the next verification on.
    func install(_ verifier: SignatureVerifier) {
        let box = Box(verifier)
        installed.withLock { $0.append(box) }
        current.store(Self.address(of: box), ordering: .releasing)
    }

    private var box: Box {
        let address = current.load(ordering: .acquiring)
        guard let pointer = UnsafeRawPointer(bitPattern: address) else {
            preconditionFailure("the verifier's address is null")
        }
        return Unmanaged<Box>.fromOpaque(pointer).takeUnretainedValue()
    }

    private static func address(of box: Box) -> UInt {
        UInt(bitPattern: Unmanaged.passUnretained(box).toOpaque())
    }
}
