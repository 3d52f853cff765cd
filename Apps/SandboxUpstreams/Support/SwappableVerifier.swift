import Foundation
import RequestSigning
import Synchronization

/// An upstream's signature verifiers, whose trusted keys can be replaced while requests are
/// being verified: each verification reads the verifiers in use with one atomic load, and a
/// replacement keeps the checks' settings, the clock and the replay guards (the same objects, so
/// a nonce seen before the swap is still refused after it).
///
/// Every verifier installed stays allocated for the life of the upstream: a request may hold
/// the address it loaded just before a swap, and key rings are replaced rarely (a signal).
final class SwappableVerifier: Sendable {
    /// The verifiers of one key ring: the main one, and the one with the upstream's own nonces
    /// for reads during a shared replay store's outage (`nil` without a shared store).
    struct Verifiers: Sendable {
        var main: SignatureVerifier
        var outage: SignatureVerifier?
    }

    private final class Box: Sendable {
        let verifiers: Verifiers
        init(_ verifiers: Verifiers) { self.verifiers = verifiers }
    }

    /// The address of the box in use (an `Unmanaged` opaque pointer's bits).
    private let currentAddress: Atomic<UInt>
    private let installed: Mutex<[Box]>
    private let clock: @Sendable () -> Date

    init(_ verifiers: Verifiers, clock: @escaping @Sendable () -> Date) {
        let box = Box(verifiers)
        currentAddress = Atomic(Self.address(of: box))
        installed = Mutex([box])
        self.clock = clock
    }

    /// The verifiers in use now.
    var current: Verifiers { box.verifiers }

    /// Verifiers trusting `keyRing`, with the settings, clock and replay guards of the ones in
    /// use; ``install(_:)`` makes them current.
    func verifiers(trusting keyRing: KeyRing) -> Verifiers {
        let now = box.verifiers
        func rebuilt(_ verifier: SignatureVerifier) -> SignatureVerifier {
            SignatureVerifier(
                keyRing: keyRing, configuration: verifier.configuration, replayGuard: verifier.replayGuard,
                clock: clock)
        }
        return Verifiers(main: rebuilt(now.main), outage: now.outage.map(rebuilt))
    }

    /// Makes `verifiers` the ones used from the next verification on.
    func install(_ verifiers: Verifiers) {
        let box = Box(verifiers)
        installed.withLock { $0.append(box) }
        currentAddress.store(Self.address(of: box), ordering: .releasing)
    }

    private var box: Box {
        let address = currentAddress.load(ordering: .acquiring)
        guard let pointer = UnsafeRawPointer(bitPattern: address) else {
            preconditionFailure("the verifier's address is null")
        }
        return Unmanaged<Box>.fromOpaque(pointer).takeUnretainedValue()
    }

    private static func address(of box: Box) -> UInt {
        UInt(bitPattern: Unmanaged.passUnretained(box).toOpaque())
    }
}
