/// An RFC 8941 item: a bare item with parameters.
public struct SFItem: Hashable, Sendable {
    /// The value.
    public var bareItem: SFBareItem
    /// The parameters.
    public var parameters: SFParameters

    /// Creates an item.
    public init(_ bareItem: SFBareItem, parameters: SFParameters = SFParameters()) {
        self.bareItem = bareItem
        self.parameters = parameters
    }
}
