import AppLogging
import Synchronization

/// Counts the requests an ``HTTP1Transport`` hands to its fallback, by reason, and logs the first
/// of each reason: a deployment that meant to use the fast path sees at once when it does not.
final class HTTP1FallbackCounter: Sendable {
    private struct State {
        var counts: [HTTP1Transport.FallbackReason: Int] = [:]
    }

    private let state = Mutex(State())
    private let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    /// Counts one request sent to the fallback; the first of its reason is logged.
    func record(_ reason: HTTP1Transport.FallbackReason) {
        let first = state.withLock { state -> Bool in
            let count = state.counts[reason, default: 0]
            state.counts[reason] = count + 1
            return count == 0
        }
        guard first else { return }
        logger.notice(
            "the HTTP/1.1 transport sends requests to its fallback transport",
            metadata: ["reason": .string(reason.rawValue), "detail": .string(Self.detail(reason))]
        )
    }

    /// How many requests went to the fallback for each reason (every reason, zeros included).
    var counts: [HTTP1Transport.FallbackReason: Int] {
        let counts = state.withLock { $0.counts }
        var all: [HTTP1Transport.FallbackReason: Int] = [:]
        for reason in HTTP1Transport.FallbackReason.allCases { all[reason] = counts[reason, default: 0] }
        return all
    }

    private static func detail(_ reason: HTTP1Transport.FallbackReason) -> String {
        switch reason {
        case .https: "an https URL (TLS is the fallback's); logged once, counted in fallbackCounts"
        case .userInfo: "a URL with user information; logged once, counted in fallbackCounts"
        case .otherURL: "a URL the HTTP/1.1 client does not read; logged once, counted in fallbackCounts"
        case .offLoop:
            "a call from a thread that is not one of the transport's event loops; logged once, counted in fallbackCounts"
        }
    }
}
