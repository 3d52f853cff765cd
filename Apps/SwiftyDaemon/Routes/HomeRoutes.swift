import FeedModule
import PaymentModule
import ServiceCore
import UserModule

/// `/v1/home`, which composes three modules: profile, first feed page and wallet, fetched
/// concurrently. A part whose domain fails is `null`, with an entry in `errors`; the rest is
/// still served with 200. When no part is served, the answer is a problem with the most telling
/// status of the parts' (``HomeScreen/allFailedProblem()``).
struct HomeRoutes: AppRouteGroup {
    static let modules: [any ModuleIdentity.Type] = [
        UserModuleIdentity.self, FeedModuleIdentity.self, PaymentModuleIdentity.self,
    ]

    let users: UserClient
    let feed: FeedClient
    let payments: PaymentClient

    init(clients: RouteGroupClients) throws {
        users = try clients.make()
        feed = try clients.make()
        payments = try clients.make()
    }

    func addRoutes(to routes: inout AppRoutes) {
        routes.add("GET", "/v1/home") { call in
            let user = call.user
            // Two parts in child tasks, the third in this task meanwhile: the three calls are in
            // flight at once, and a third child task (its frames' memory) is not needed.
            async let profile = Self.part { try await users.profile(id: user) }
            async let timeline = Self.part { try await feed.timeline(user: user, cursor: nil, limit: 20) }
            let wallet = await Self.part { try await payments.wallet(user: user) }
            let screen = HomeScreen(profile: await profile, feed: await timeline, wallet: wallet)
            guard !screen.allFailed else { throw screen.allFailedProblem() }
            return AppAnswer.json(screen)
        }
    }

    private static func part<T: Sendable>(_ body: () async throws -> T) async -> Result<T, HomeScreen.PartFailure> {
        do {
            return .success(try await body())
        } catch {
            return .failure(HomeScreen.PartFailure(error))
        }
    }
}
