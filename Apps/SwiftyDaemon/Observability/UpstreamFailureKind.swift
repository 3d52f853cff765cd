import ServiceCore

/// How an upstream attempt or call failed, as metrics and the access log name it.
enum UpstreamFailureKind: String, CaseIterable {
    /// The upstream answered 503.
    case unavailable
    /// The upstream answered 429.
    case rateLimited = "rate_limited"
    /// The upstream answered another 5xx.
    case serverError = "server_error"
    /// The attempt's timeout passed before the answer was complete.
    case timeout
    /// No connection could be made.
    case refused
    /// The connection closed or reset before the answer was complete.
    case reset
    /// The calling task was cancelled.
    case cancelled
    /// The answer's body was over the transport's limit.
    case tooLarge = "too_large"
    /// Refused before sending: every host's circuit breaker is open.
    case circuitOpen = "circuit_open"
    /// Refused before sending: the module's concurrency limit was reached.
    case overloaded
    /// Refused before sending: too little of the app request's deadline was left.
    case deadline
    /// A bearer credential could not be obtained or renewed.
    case credentials
    /// Anything else.
    case other

    /// The kind of a failed answer: 429 and 5xx; `nil` for any other status.
    init?(status: Int) {
        switch status {
        case 429: self = .rateLimited
        case 503: self = .unavailable
        case 500...599: self = .serverError
        default: return nil
        }
    }

    /// The kind of a thrown error: a transport's, a resilience middleware's or a cancellation.
    init(_ error: any Error) {
        switch error {
        case let error as TransportError:
            switch error.code {
            case .timedOut: self = .timeout
            case .connectionFailed: self = .refused
            case .connectionClosed: self = .reset
            case .cancelled: self = .cancelled
            case .responseTooLarge: self = .tooLarge
            default: self = .other
            }
        case let error as ServiceError:
            switch error.code {
            case .circuitOpen: self = .circuitOpen
            case .overloaded: self = .overloaded
            case .deadlineExceeded: self = .deadline
            case .credentialRefreshFailed: self = .credentials
            case .timeout: self = .timeout
            case .cancelled: self = .cancelled
            default: self = error.underlying.map { Self($0) } ?? .other
            }
        case is CancellationError: self = .cancelled
        default: self = .other
        }
    }

    /// Whether the call was refused before anything was sent.
    var isRefusal: Bool { self == .circuitOpen || self == .overloaded || self == .deadline }
}
