import FeedModule
import HTTPTypes
import PaymentModule
import ServiceCore
import UserModule

/// The `/v1/home` answer.
struct HomeScreen: Encodable {
    struct PartError: Encodable {
        var part: String
        var module: String?
        var status: Int
        var detail: String
    }

    /// Why one part failed: the problem it would have been answered with alone, and when trying
    /// again makes sense when a resilience limit refused the call.
    struct PartFailure: Error {
        var problem: AppProblem
        var retryAfterSeconds: Int?

        init(_ error: any Error) {
            problem = AppProblem.forUpstream(error)
            retryAfterSeconds = ((error as? ServiceError)?.underlying as? ResilienceRejection)?.retryAfterSeconds
        }
    }

    var profile: User?
    var feed: TimelinePage?
    var wallet: Wallet?
    var errors: [PartError]
    /// The failures, in part order.
    private(set) var failures: [PartFailure] = []

    init(
        profile: Result<User, PartFailure>,
        feed: Result<TimelinePage, PartFailure>,
        wallet: Result<Wallet, PartFailure>
    ) {
        var errors: [PartError] = []
        var failures: [PartFailure] = []
        func value<T>(_ result: Result<T, PartFailure>, _ part: String) -> T? {
            switch result {
            case .success(let value): return value
            case .failure(let failure):
                let problem = failure.problem
                errors.append(
                    PartError(part: part, module: problem.module, status: problem.status, detail: problem.detail))
                failures.append(failure)
                return nil
            }
        }
        self.profile = value(profile, "profile")
        self.feed = value(feed, "feed")
        self.wallet = value(wallet, "wallet")
        self.errors = errors
        self.failures = failures
    }

    /// Whether no part was served.
    var allFailed: Bool { profile == nil && feed == nil && wallet == nil }

    /// The answer when every part failed: the most telling status of the parts' (503 when any
    /// domain is unavailable or refused by a limit, then 504 for a timeout, then 502 for a bad
    /// answer, else the first part's), with `Retry-After` on a 503, naming every module; its
    /// `code` is the chosen part's, else `upstream_unavailable`, `deadline_exceeded` or
    /// `upstream_bad_answer`.
    func allFailedProblem() -> AppProblemResponse {
        let statuses = failures.map(\.problem.status)
        let status = [503, 504, 502].first { statuses.contains($0) } ?? statuses.first ?? 502
        let named = failures.map { "\($0.problem.module ?? "an upstream") (\($0.problem.status))" }
        var problem = AppProblem(
            status, "No part of the home screen could be served: \(named.joined(separator: ", ")).")
        let chosen = failures.first { $0.problem.status == status }?.problem.details.code
        problem.details.code =
            chosen ?? [503: "upstream_unavailable", 504: "deadline_exceeded"][status] ?? "upstream_bad_answer"
        let modules = failures.compactMap(\.problem.module)
        problem.details.extensions.append(.init(name: "modules", value: modules.joined(separator: ",")))
        // AppProblem's answer carries Retry-After on a 503: the longest any part asked for.
        problem.retryAfterSeconds = failures.compactMap(\.retryAfterSeconds).max() ?? 1
        return AppProblemResponse(problem: problem)
    }

    private enum CodingKeys: String, CodingKey { case profile, feed, wallet, errors }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        // Failed parts are explicit nulls, so clients can tell "failed" from "absent".
        try container.encode(profile, forKey: .profile)
        try container.encode(feed, forKey: .feed)
        try container.encode(wallet, forKey: .wallet)
        try container.encode(errors, forKey: .errors)
    }
}
