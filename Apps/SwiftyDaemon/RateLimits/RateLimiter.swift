import HTTPTypes

/// Applies ``RateLimitSettings`` to app requests through a ``RateLimitStore`` and says what to
/// answer: the IETF draft's `RateLimit-Policy` and `RateLimit` fields on every limited answer,
/// and a 429 problem with `Retry-After` when the allowance is used up.
///
/// A store that cannot be reached lets the request through (counted and logged once per outage by
/// ``health``): limits protect the service, and an outage of their store must not stop it.
final class RateLimiter: Sendable {
    /// The outcome of one check.
    enum Verdict: Sendable {
        /// Go on; add `fields` to the answer.
        case allowed(fields: [(String, String)])
        /// Answer this instead.
        case refused(AppProblemResponse)
    }

    let settings: RateLimitSettings
    let store: any RateLimitStore
    /// Counts the store's failures for `/metrics` and logs its outages.
    let health: SharedStateHealth

    init(
        settings: RateLimitSettings, store: any RateLimitStore,
        health: SharedStateHealth = SharedStateHealth(store: "rate_limits")
    ) {
        self.settings = settings
        self.store = store
        self.health = health
    }

    /// Store errors that let a request through.
    var storeFailures: Int { health.errorCount }

    /// Whether `routeClass` has any limit (the checks are skipped otherwise).
    func limits(_ routeClass: RouteClass) -> Bool {
        settings[routeClass].perUser != nil || settings[routeClass].perAddress != nil
    }

    /// Checks the per-address limit of `routeClass` for `address`.
    func check(_ routeClass: RouteClass, address: String) async -> Verdict {
        guard let policy = settings[routeClass].perAddress else { return .allowed(fields: []) }
        return await check(policy, key: "\(routeClass.rawValue)|a|\(address)", who: "this client address")
    }

    /// Checks the per-user limit of `routeClass` for `user`.
    func check(_ routeClass: RouteClass, user: String) async -> Verdict {
        guard let policy = settings[routeClass].perUser else { return .allowed(fields: []) }
        return await check(policy, key: "\(routeClass.rawValue)|u|\(user)", who: "this user")
    }

    private func check(_ policy: RateLimitPolicy, key: String, who: String) async -> Verdict {
        let decision: RateLimitDecision
        do {
            decision = try await store.acquire(key, policy: policy)
            health.recordSuccess()
        } catch {
            health.recordFailure(error)
            return .allowed(fields: [])
        }
        let fields = [("RateLimit-Policy", policy.policyField), ("RateLimit", decision.field(for: policy))]
        guard decision.allowed else {
            let seconds = decision.retryAfterSeconds
            var problem = AppProblem(
                429,
                "Too many requests from \(who) (\(policy.quota) per \(policy.window.components.seconds) s); "
                    + "retry after \(seconds) s.",
                retryAfterSeconds: Int(seconds)
            )
            problem.details.code = "rate_limited"
            return .refused(AppProblemResponse(problem: problem, extraHeaders: fields))
        }
        return .allowed(fields: fields)
    }
}
