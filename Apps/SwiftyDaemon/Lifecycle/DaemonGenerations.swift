import AppLifecycle
import AppLogging
import Synchronization

/// The generation new requests are served with, swapped by a reload, and the retiring of the
/// ones before it; a part of the daemon's ``ServiceGroup`` in the place of the upstream
/// transports (it stops the current generation's transports after the app server).
///
/// Reading the current generation is one atomic load of its address: no lock on the request
/// path. A request counts itself in the generation's ``DaemonGeneration/requests`` and then
/// checks that the generation is still current; a retired generation's transports are stopped
/// once its count is back to zero (or ``retireWithin`` has passed). Every generation made stays
/// allocated for the life of the process, its transports closed once retired: a request thread
/// may hold an address it loaded just before a swap, and a reload is rare enough that the few
/// kilobytes each keeps do not add up.
final class DaemonGenerations: LifecycleService {
    let name = "upstream transports"

    /// The address of the current generation (an `Unmanaged` opaque pointer's bits).
    private let current: Atomic<UInt>
    /// Every generation made, which keeps each allocated; and the retirements under way.
    private let state: Mutex<(made: [DaemonGeneration], retiring: [Int: Task<Void, Never>])>
    /// How long a retired generation's requests may take before its transports are stopped.
    let retireWithin: Duration
    private let logger: Logger

    /// - Parameters:
    ///   - first: The generation built at start.
    ///   - retireWithin: How long a retired generation's requests may take before its
    ///     transports are stopped under them: the configuration's `drainSeconds`.
    init(first: DaemonGeneration, retireWithin: Duration, logger: Logger) {
        current = Atomic(Self.address(of: first))
        state = Mutex(([first], [:]))
        self.retireWithin = retireWithin
        self.logger = logger
    }

    /// The generation new requests are served with now.
    var generation: DaemonGeneration { Self.generation(at: current.load(ordering: .acquiring)) }

    /// The current generation, counted as serving one more request until ``release(_:)``.
    ///
    /// The count is taken before the generation is checked to be still current, so a retirement
    /// that saw a count of zero after its swap never has a request starting on it.
    func acquire() -> DaemonGeneration {
        var address = current.load(ordering: .acquiring)
        while true {
            let generation = Self.generation(at: address)
            generation.requests.wrappingAdd(1, ordering: .sequentiallyConsistent)
            let now = current.load(ordering: .sequentiallyConsistent)
            if now == address { return generation }
            // A reload swapped it meanwhile: serve the request with the new one.
            generation.requests.wrappingSubtract(1, ordering: .sequentiallyConsistent)
            address = now
        }
    }

    /// Ends one request's use of `generation`.
    func release(_ generation: DaemonGeneration) {
        generation.requests.wrappingSubtract(1, ordering: .sequentiallyConsistent)
    }

    /// Makes `next` current for new requests and retires the one before it in the background.
    /// - Returns: The generation replaced.
    @discardableResult
    func replace(with next: DaemonGeneration) -> DaemonGeneration {
        state.withLock { $0.made.append(next) }
        let previous = Self.generation(
            at: current.exchange(Self.address(of: next), ordering: .sequentiallyConsistent))
        // Made under the lock, so that the task's own removal at its end comes after this entry.
        state.withLock { state in
            state.retiring[previous.number] = Task {
                await self.retire(previous)
                self.state.withLock { _ = $0.retiring.removeValue(forKey: previous.number) }
            }
        }
        return previous
    }

    /// Waits for a replaced generation's requests to finish, by ``retireWithin`` at the latest,
    /// then stops its transports.
    private func retire(_ generation: DaemonGeneration) async {
        let clock = ContinuousClock()
        let deadline = clock.now + retireWithin
        while generation.requests.load(ordering: .sequentiallyConsistent) > 0 && clock.now < deadline {
            do {
                try await Task.sleep(for: .milliseconds(10))
            } catch {
                break  // cancelled by stop(): close the transports now
            }
        }
        let left = generation.requests.load(ordering: .sequentiallyConsistent)
        await generation.transports.drain(until: clock.now + .milliseconds(100))
        await generation.transports.stop()
        let metadata: Logger.Metadata = [
            "generation": .string(String(generation.number)), "requests_cut": .string(String(left)),
        ]
        if left > 0 {
            logger.warning("configuration generation retired with requests still running", metadata: metadata)
        } else {
            logger.info("configuration generation retired", metadata: metadata)
        }
    }

    func start() async throws {}

    /// Lets the retirements under way end, then the current generation's transports drain.
    func drain(until deadline: ContinuousClock.Instant) async {
        for task in state.withLock({ Array($0.retiring.values) }) { await task.value }
        await generation.transports.drain(until: deadline)
    }

    /// Cuts the retirements under way short (each then stops its transports) and stops the
    /// current generation's transports.
    func stop() async {
        let retiring = state.withLock { Array($0.retiring.values) }
        for task in retiring { task.cancel() }
        for task in retiring { await task.value }
        await generation.transports.stop()
    }

    private static func address(of generation: DaemonGeneration) -> UInt {
        UInt(bitPattern: Unmanaged.passUnretained(generation).toOpaque())
    }

    /// The generation at an address taken from ``current``; ``state`` keeps it allocated.
    private static func generation(at address: UInt) -> DaemonGeneration {
        guard let pointer = UnsafeRawPointer(bitPattern: address) else {
            preconditionFailure("the current generation's address is null")
        }
        return Unmanaged<DaemonGeneration>.fromOpaque(pointer).takeUnretainedValue()
    }
}
