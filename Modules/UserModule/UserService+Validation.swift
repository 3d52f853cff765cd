public import ServiceCore

extension UserService {
    /// The longest bearer token accepted by ``introspect(token:)``, in UTF-8 bytes.
    public static let maximumTokenBytes = 4096

    /// Checks the case's inputs; `ServiceClient` calls it before it builds any request.
    ///
    /// Identifiers must be 1-128 bytes of UTF-8 without control characters and not `.` or `..`;
    /// a cursor, when given, 1-512 bytes without control characters; `limit` 1...100; a token
    /// 1-4096 bytes without control characters.
    /// - Throws: ``ServiceError`` with code `invalidRequest`, naming the field and the rule.
    public func validate() throws(ServiceError) {
        let check = InputRules(for: self)
        switch self {
        case .profile(let id):
            try check.identifier(id, named: "id")
        case .follow(let target, let actor), .unfollow(let target, let actor):
            try check.identifier(target, named: "target")
            try check.identifier(actor, named: "actor")
        case .followers(let id, let cursor, let limit):
            try check.identifier(id, named: "id")
            try check.cursor(cursor)
            try check.limit(limit)
        case .introspect(let token):
            try check.opaque(token, named: "token", maximumBytes: Self.maximumTokenBytes)
        }
    }
}
