import Synchronization

/// The fault settings of one upstream and its seeded generator, behind a lock; decides per
/// request what to inject.
final class FaultInjector: Sendable {
    /// What to do with one request.
    struct Decision: Equatable {
        enum Outcome: Equatable {
            case answer
            case error
            /// Reset before processing.
            case reset
            /// Process, then reset instead of answering.
            case resetAfterProcessing
        }

        var latency: Duration
        var outcome: Outcome
    }

    private struct State {
        var settings: FaultSettings
        var generator: SeededGenerator
    }

    private let state: Mutex<State>

    /// Creates an injector.
    init(settings: FaultSettings, seed: UInt64) {
        state = Mutex(State(settings: settings, generator: SeededGenerator(seed: seed)))
    }

    /// The current settings; setting them takes effect for the next request.
    var settings: FaultSettings {
        get { state.withLock { $0.settings } }
        set { state.withLock { $0.settings = newValue } }
    }

    /// Draws the decision for one request: three draws per request whatever the settings, so the
    /// sequence depends only on the seed and the number of requests.
    func decide() -> Decision {
        state.withLock { state in
            let resetDraw = state.generator.nextUnitInterval()
            let lateResetDraw = state.generator.nextUnitInterval()
            let errorDraw = state.generator.nextUnitInterval()
            let settings = state.settings
            let outcome: Decision.Outcome =
                if resetDraw < settings.resetRate {
                    .reset
                } else if lateResetDraw < settings.resetAfterProcessingRate {
                    .resetAfterProcessing
                } else if errorDraw < settings.errorRate {
                    .error
                } else {
                    .answer
                }
            return Decision(latency: settings.latency, outcome: outcome)
        }
    }
}
