/// An RFC 8941 list: ordered members separated by commas.
public struct SFList: Hashable, Sendable {
    /// The members, in order.
    public var members: [SFMember]

    /// Creates a list.
    public init(_ members: [SFMember] = []) { self.members = members }
}
