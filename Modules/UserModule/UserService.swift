public import ServiceCore

/// The user upstream's API: profiles, follows and session introspection.
///
/// Each case is data; send it with ``UserClient`` (which validates inputs first) or with a
/// `ServiceClient<UserService>`. The exact requests and answers are specified in
/// `docs/upstreams-user.md` (the conventions for every domain in `docs/upstreams.md`). The
/// acting user of ``follow(target:actor:)`` and ``unfollow(target:actor:)`` is in the path; the
/// upstream trusts it because the request is signed with the module's key.
public enum UserService: Service, Equatable {
    /// `GET /v1/users/{id}`: a user's profile.
    case profile(id: String)
    /// `PUT /v1/users/{actor}/following/{target}`: `actor` follows `target` (idempotent).
    case follow(target: String, actor: String)
    /// `DELETE /v1/users/{actor}/following/{target}`: `actor` stops following `target` (idempotent).
    case unfollow(target: String, actor: String)
    /// `GET /v1/users/{id}/followers?cursor=&limit=`: one page of a user's followers.
    case followers(id: String, cursor: String?, limit: Int)
    /// `POST /v1/sessions/introspect`: what a bearer token stands for.
    case introspect(token: String)

    /// The upstream's error body.
    public typealias ErrorEnvelope = UserErrorEnvelope

    /// `UserModule`.
    public static var moduleName: String { UserModuleIdentity.name }
}
