public import Foundation
import ServiceCore

/// What a bearer token stands for, as `POST /v1/sessions/introspect` answers it.
///
/// An unknown, expired or revoked token is `active: false` with neither ``userId`` nor
/// ``expiresAt``; the upstream answers 200 either way.
public struct TokenIntrospection: Codable, Sendable, Equatable {
    /// Whether the token is valid now.
    public var active: Bool
    /// The user the token belongs to, when active.
    public var userId: String?
    /// When the token stops being valid, when active (RFC 3339 on the wire).
    public var expiresAt: Date?

    /// Creates an answer.
    public init(active: Bool, userId: String? = nil, expiresAt: Date? = nil) {
        self.active = active
        self.userId = userId
        self.expiresAt = expiresAt
    }

    private enum CodingKeys: String, CodingKey {
        case active, userId, expiresAt
    }

    /// Decodes the answer; `expiresAt` is RFC 3339 text.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        active = try container.decode(Bool.self, forKey: .active)
        userId = try container.decodeIfPresent(String.self, forKey: .userId)
        expiresAt = try container.decodeRFC3339IfPresent(forKey: .expiresAt)
    }

    /// Encodes the answer; absent members are left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(active, forKey: .active)
        try container.encodeIfPresent(userId, forKey: .userId)
        try container.encodeRFC3339IfPresent(expiresAt, forKey: .expiresAt)
    }
}
