/// The label values of one series, in the order its family declares the labels (at most three).
///
/// The values are held inline, so naming a series with ``init(_:_:_:)`` and its shorter forms
/// allocates nothing; the array-literal form is for reads and tests.
public struct LabelValues: Hashable, Sendable, ExpressibleByArrayLiteral {
    private let first: String
    private let second: String
    private let third: String
    /// How many values there are.
    public let count: Int

    /// No values: the one series of a family without labels.
    public init() {
        (first, second, third, count) = ("", "", "", 0)
    }

    /// One value.
    public init(_ first: String) {
        (self.first, second, third, count) = (first, "", "", 1)
    }

    /// Two values.
    public init(_ first: String, _ second: String) {
        (self.first, self.second, third, count) = (first, second, "", 2)
    }

    /// Three values.
    public init(_ first: String, _ second: String, _ third: String) {
        (self.first, self.second, self.third, count) = (first, second, third, 3)
    }

    /// At most three values.
    public init(arrayLiteral values: String...) {
        precondition(values.count <= 3, "a metric series has at most three label values")
        first = values.count > 0 ? values[0] : ""
        second = values.count > 1 ? values[1] : ""
        third = values.count > 2 ? values[2] : ""
        count = values.count
    }

    /// The values in order.
    var array: [String] { Array([first, second, third].prefix(count)) }
}
