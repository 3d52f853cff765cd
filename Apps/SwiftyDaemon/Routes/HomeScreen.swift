import FeedModule
import PaymentModule
import UserModule

/// The `/v1/home` answer.
struct HomeScreen: Encodable {
    struct PartError: Encodable {
        var part: String
        var module: String?
        var status: Int
        var detail: String
    }

    var profile: User?
    var feed: TimelinePage?
    var wallet: Wallet?
    var errors: [PartError]

    init(
        profile: Result<User, AppProblem>,
        feed: Result<TimelinePage, AppProblem>,
        wallet: Result<Wallet, AppProblem>
    ) {
        var errors: [PartError] = []
        func value<T>(_ result: Result<T, AppProblem>, _ part: String) -> T? {
            switch result {
            case .success(let value): return value
            case .failure(let problem):
                errors.append(
                    PartError(part: part, module: problem.module, status: problem.status, detail: problem.detail))
                return nil
            }
        }
        self.profile = value(profile, "profile")
        self.feed = value(feed, "feed")
        self.wallet = value(wallet, "wallet")
        self.errors = errors
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
