public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The default time source of ``RequestSigner`` and ``SignatureVerifier``: the system's wall
/// clock at whole-second resolution, which is all `created` and `expires` carry.
public enum SystemClock {
    /// The current time, truncated to the second (read with `time(2)`, cheaper than `Date()`).
    @Sendable
    public static func now() -> Date {
        Date(timeIntervalSince1970: TimeInterval(time(nil)))
    }
}
