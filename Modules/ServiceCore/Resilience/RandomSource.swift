/// Where the jitter of retry delays comes from: numbers in `0..<1`.
///
/// Handed to ``RetryMiddleware`` when it is made, so a test can fix the draw and check delays
/// exactly. Production uses ``system``.
public struct RandomSource: Sendable {
    private let draw: @Sendable () -> Double

    /// Creates a source from a closure returning numbers in `0..<1` (values outside are clamped).
    public init(_ draw: @escaping @Sendable () -> Double) {
        self.draw = draw
    }

    /// The system's generator.
    public static let system = RandomSource { Double.random(in: 0..<1) }

    /// A source that always returns `value`, for tests.
    public static func constant(_ value: Double) -> RandomSource {
        RandomSource { value }
    }

    /// The next number, in `0...1`.
    public func next() -> Double {
        min(1, max(0, draw()))
    }
}
