public import ServiceCore

extension UserService {
    /// The case's name for logs and metrics, spelled out: the protocol's default finds it by
    /// reflection, which costs microseconds on every call.
    public var operationName: String {
        switch self {
        case .profile: "profile"
        case .follow: "follow"
        case .unfollow: "unfollow"
        case .followers: "followers"
        case .introspect: "introspect"
        }
    }

    /// The case's path; identifiers are percent-encoded as single segments.
    public var path: RequestPath {
        switch self {
        case .profile(let id): "/v1/users/\(id)"
        case .follow(let target, let actor), .unfollow(let target, let actor):
            "/v1/users/\(actor)/following/\(target)"
        case .followers(let id, _, _): "/v1/users/\(id)/followers"
        case .introspect: "/v1/sessions/introspect"
        }
    }

    /// The case's method.
    public var method: HTTPMethod {
        switch self {
        case .profile, .followers: .get
        case .follow: .put
        case .unfollow: .delete
        case .introspect: .post
        }
    }

    /// The query of ``followers(id:cursor:limit:)`` and the JSON body of ``introspect(token:)``.
    public var task: RequestTask {
        switch self {
        case .profile, .follow, .unfollow:
            .plain
        case .followers(_, let cursor, let limit):
            .query(["cursor": cursor.map(QueryValue.string), "limit": .int(limit)])
        case .introspect(let token):
            .json(IntrospectionRequestBody(token: token), encoder: SortedKeysJSONEncoder())
        }
    }

    /// The default policy, except that introspection, a read, may be retried and has a short timeout.
    public var policy: RequestPolicy {
        switch self {
        case .introspect: RequestPolicy(timeout: .seconds(5), retry: .idempotent)
        default: .default(for: method)
        }
    }
}

extension UserService: CustomStringConvertible {
    /// The case with its values, the token of ``introspect(token:)`` redacted.
    public var description: String {
        switch self {
        case .profile(let id): "profile(id: \(id.debugDescription))"
        case .follow(let target, let actor):
            "follow(target: \(target.debugDescription), actor: \(actor.debugDescription))"
        case .unfollow(let target, let actor):
            "unfollow(target: \(target.debugDescription), actor: \(actor.debugDescription))"
        case .followers(let id, let cursor, let limit):
            "followers(id: \(id.debugDescription), cursor: \(cursor?.debugDescription ?? "nil"), limit: \(limit))"
        case .introspect: "introspect(token: [REDACTED])"
        }
    }
}
