import AppLogging
import ServiceCore
import Synchronization

/// One ``ResilienceStack`` per module, shared by every client made for it (the authenticator's,
/// each route group's), so a module has one budget, one breaker per host and one limit.
final class ResilienceStacks: Sendable {
    private let stacks = Mutex<[String: ResilienceStack]>([:])

    /// The module's stack, made on first use from its binding; its breakers and bulkhead are
    /// then shown in `metrics`.
    func stack(for binding: UpstreamBinding, metrics: Metrics, logger: Logger) -> ResilienceStack {
        let (stack, made) = stacks.withLock { stacks -> (ResilienceStack, Bool) in
            if let existing = stacks[binding.module] { return (existing, false) }
            let stack = ResilienceStack(
                module: binding.module, baseURL: binding.baseURL, settings: binding.resilience, logger: logger)
            stacks[binding.module] = stack
            return (stack, true)
        }
        if made {
            metrics.addResilienceSource(module: binding.module) {
                ResilienceGauges(
                    breakers: stack.breakerStates.map { (host: $0.host, state: $0.state.rawValue) },
                    inFlight: stack.concurrencyLimit.inFlight
                )
            }
        }
        return stack
    }

    /// The module's stack, if one was made.
    subscript(module: String) -> ResilienceStack? {
        stacks.withLock { $0[module] }
    }
}
