/// An RFC 8941 inner list: `(item item ...)` with parameters.
public struct SFInnerList: Hashable, Sendable {
    /// The items, in order.
    public var items: [SFItem]
    /// The list's own parameters (after the closing parenthesis).
    public var parameters: SFParameters

    /// Creates an inner list.
    public init(_ items: [SFItem], parameters: SFParameters = SFParameters()) {
        self.items = items
        self.parameters = parameters
    }
}
