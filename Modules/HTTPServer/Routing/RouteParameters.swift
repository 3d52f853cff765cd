/// The values a ``Router`` matched for a route's `:name` segments, percent-decoded.
public struct RouteParameters: Sendable, Equatable {
    /// The `(name, value)` pairs in pattern order.
    public private(set) var pairs: [(name: String, value: String)]

    /// Creates parameters from pairs, in pattern order.
    public init(_ pairs: [(name: String, value: String)] = []) { self.pairs = pairs }

    /// The decoded value for `name`, or `nil` when the route has no such parameter.
    public subscript(name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// The number of parameters.
    public var count: Int { pairs.count }

    /// Compares names and values in order.
    public static func == (lhs: RouteParameters, rhs: RouteParameters) -> Bool {
        lhs.pairs.count == rhs.pairs.count && zip(lhs.pairs, rhs.pairs).allSatisfy { $0 == $1 }
    }
}
