/// The rate limits of each route class: per authenticated user, and per client address (the
/// address ``ClientAddress`` resolves, so behind trusted proxies the original client).
///
/// Payments are limited per user by default (5 per second with a burst of 5: a person paying by
/// hand never meets it, a script draining a wallet does); the other classes are not limited
/// unless configured, so a load test with one token is not throttled.
struct RateLimitSettings: Sendable, Equatable {
    /// One class's limits; `nil` is no limit.
    struct Limits: Sendable, Equatable {
        /// Per authenticated user.
        var perUser: RateLimitPolicy?
        /// Per client address, checked before the bearer token is.
        var perAddress: RateLimitPolicy?

        /// No limit.
        static let none = Limits()
    }

    /// `GET` and `HEAD` routes.
    var reads: Limits = .none
    /// Other routes that change state.
    var writes: Limits = .none
    /// Routes that move money.
    var payments: Limits = Limits(
        perUser: RateLimitPolicy(name: "payments-user", quota: 5, window: .seconds(1)))
    /// The most keys the in-memory store holds at once.
    var storeCapacity = 100_000

    /// The limits of `routeClass`.
    subscript(routeClass: RouteClass) -> Limits {
        get {
            switch routeClass {
            case .reads: reads
            case .writes: writes
            case .payments: payments
            }
        }
        set {
            switch routeClass {
            case .reads: reads = newValue
            case .writes: writes = newValue
            case .payments: payments = newValue
            }
        }
    }

    /// Every problem with the settings, each naming its field (`rateLimits.payments.perUser.quota ...`).
    var problems: [String] {
        var problems: [String] = []
        for routeClass in RouteClass.allCases {
            let limits = self[routeClass]
            for (scope, policy) in [("perUser", limits.perUser), ("perAddress", limits.perAddress)] {
                if let problem = policy?.problem {
                    problems.append("rateLimits.\(routeClass.rawValue).\(scope): \(problem)")
                }
            }
        }
        if storeCapacity < 16 { problems.append("rateLimits.storeCapacity must be at least 16") }
        return problems
    }
}
