/// A small seeded random number generator (SplitMix64) for reproducible generated inputs: the
/// same seed gives the same sequence on every run and platform, so a failing fuzz case can be
/// replayed.
///
/// ```swift
/// var random = SplitMix64(seed: 0x5EED)
/// let length = Int.random(in: 0..<64, using: &random)
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
