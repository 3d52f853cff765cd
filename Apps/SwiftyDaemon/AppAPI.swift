import FeedModule
import Foundation
import HTTPServer
import HTTPTypes
import JSON
import PaymentModule
import ServiceCore
import UserModule

/// The app-facing API: each handler authenticates, calls the feature modules, and maps their
/// results and errors to JSON answers.
struct AppAPI: Sendable {
    let users: UserClient
    let feed: FeedClient
    let payments: PaymentClient
    let authenticator: Authenticator

    private static let encoder = StreamingJSONEncoder()

    static func json(_ value: some Encodable) -> ServerResponse {
        json(200, value)
    }

    static func json(_ status: Int, _ value: some Encodable) -> ServerResponse {
        do {
            return .json(status, data: try encoder.encode(value))
        } catch {
            return AppProblem(500, "The answer could not be encoded.").response
        }
    }

    /// Runs `body` for an authenticated user, answering 401 otherwise.
    private func authenticated(
        _ request: ServerRequest,
        _ body: (String) async throws -> ServerResponse
    ) async -> ServerResponse {
        switch await authenticator.authenticate(request) {
        case .failure(let problem):
            return problem.response
        case .success(let user):
            do {
                return try await body(user)
            } catch let problem as AppProblemResponse {
                return problem.response
            } catch {
                return AppProblem.forUpstream(error).response
            }
        }
    }

    // MARK: Users

    func me(_ request: ServerRequest, _ parameters: RouteParameters) async -> ServerResponse {
        await authenticated(request) { user in Self.json(try await users.profile(id: user)) }
    }

    func user(_ request: ServerRequest, _ parameters: RouteParameters) async -> ServerResponse {
        await authenticated(request) { _ in
            Self.json(try await users.profile(id: parameters["id"] ?? ""))
        }
    }

    func follow(_ request: ServerRequest, _ parameters: RouteParameters) async -> ServerResponse {
        await authenticated(request) { user in
            let target = parameters["id"] ?? ""
            guard target != user else {
                throw AppProblemResponse(problem: AppProblem(422, "You cannot follow yourself."))
            }
            try await users.follow(target: target, actor: user)
            return .noContent
        }
    }

    func unfollow(_ request: ServerRequest, _ parameters: RouteParameters) async -> ServerResponse {
        await authenticated(request) { user in
            try await users.unfollow(target: parameters["id"] ?? "", actor: user)
            return .noContent
        }
    }

    // MARK: Feed

    func timeline(_ request: ServerRequest, _ parameters: RouteParameters) async -> ServerResponse {
        await authenticated(request) { user in
            let query = AppQuery(request.query)
            let limit = try query.limit()
            return Self.json(try await feed.timeline(user: user, cursor: query["cursor"], limit: limit))
        }
    }

    func createPost(_ request: ServerRequest, _ parameters: RouteParameters) async -> ServerResponse {
        await authenticated(request) { user in
            let body = try AppBody.decode(CreatePostBody.self, from: request).get()
            let attachments = body.attachments.map {
                AttachmentUpload(fileName: $0.fileName, contentType: $0.contentType, data: $0.data)
            }
            return Self.json(201, try await feed.createPost(author: user, text: body.text, attachments: attachments))
        }
    }

    func like(_ request: ServerRequest, _ parameters: RouteParameters) async -> ServerResponse {
        await authenticated(request) { user in
            try await feed.like(post: parameters["id"] ?? "", user: user)
            return .noContent
        }
    }

    // MARK: Payments

    func wallet(_ request: ServerRequest, _ parameters: RouteParameters) async -> ServerResponse {
        await authenticated(request) { user in Self.json(try await payments.wallet(user: user)) }
    }

    func createPayment(_ request: ServerRequest, _ parameters: RouteParameters) async -> ServerResponse {
        await authenticated(request) { user in
            guard let key = request.headers["idempotency-key"], !key.isEmpty else {
                throw AppProblemResponse(
                    problem: AppProblem(
                        400, "POST /v1/payments needs an Idempotency-Key header; reuse it when retrying.")
                )
            }
            let body = try AppBody.decode(CreatePaymentBody.self, from: request).get()
            let charge = try await payments.createCharge(
                payer: user,
                payee: body.payee,
                amount: Money(amountMinor: body.amountMinor, currency: CurrencyCode(body.currency)),
                memo: body.memo,
                idempotencyKey: key
            )
            return Self.json(201, charge)
        }
    }

    func payment(_ request: ServerRequest, _ parameters: RouteParameters) async -> ServerResponse {
        await authenticated(request) { user in
            let notFound = AppProblemResponse(problem: AppProblem(404, "No payment with this id."))
            let charge: Charge
            do {
                charge = try await payments.charge(id: parameters["id"] ?? "")
            } catch let error as ServiceError where error.response?.status == 404 || error.code == .invalidRequest {
                throw notFound
            }
            // Only the payer and the payee may see a payment; anyone else learns nothing,
            // not even that it exists.
            guard charge.payerId == user || charge.payeeId == user else { throw notFound }
            return Self.json(charge)
        }
    }

    // MARK: Home

    /// The home screen: profile, first feed page and wallet, fetched concurrently. A part whose
    /// domain fails is `null`, with an entry in `errors`; the rest is still served.
    func home(_ request: ServerRequest, _ parameters: RouteParameters) async -> ServerResponse {
        await authenticated(request) { user in
            async let profile = Self.part { try await users.profile(id: user) }
            async let timeline = Self.part { try await feed.timeline(user: user, cursor: nil, limit: 20) }
            async let wallet = Self.part { try await payments.wallet(user: user) }
            let home = HomeScreen(profile: await profile, feed: await timeline, wallet: await wallet)
            return Self.json(home)
        }
    }

    private static func part<T: Sendable>(_ body: () async throws -> T) async -> Result<T, AppProblem> {
        do {
            return .success(try await body())
        } catch {
            return .failure(AppProblem.forUpstream(error))
        }
    }
}

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

/// The query parameters of an app request.
struct AppQuery {
    private var values: [String: String] = [:]

    init(_ query: String?) {
        guard let query else { return }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(parts[0])
            let value = parts.count > 1 ? Self.decode(parts[1]) : ""
            if let name, let value, values[name] == nil { values[name] = value }
        }
    }

    subscript(name: String) -> String? {
        values[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `limit`, 1-100, 20 when absent.
    func limit() throws(AppProblemResponse) -> Int {
        guard let text = self["limit"] else { return 20 }
        guard let value = Int(text), (1...100).contains(value) else {
            throw AppProblemResponse(problem: AppProblem(400, "limit must be a whole number from 1 to 100."))
        }
        return value
    }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
