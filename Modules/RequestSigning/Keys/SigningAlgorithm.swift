/// A signature algorithm from the RFC 9421 registry that Swifty implements: HMAC with SHA-2.
///
/// The raw value is the registry name used in the `alg` parameter.
public enum SigningAlgorithm: String, Sendable, CaseIterable, CustomStringConvertible {
    /// HMAC using SHA-256 (`hmac-sha256`), RFC 9421 §3.3.3. The scheme's default.
    case hmacSHA256 = "hmac-sha256"
    /// HMAC using SHA-512 (`hmac-sha512`); not in the RFC 9421 registry, for private use
    /// between Swifty peers.
    case hmacSHA512 = "hmac-sha512"

    /// The length of a MAC in bytes.
    public var macLength: Int {
        switch self {
        case .hmacSHA256: 32
        case .hmacSHA512: 64
        }
    }

    /// The OpenSSL name of the digest the HMAC uses.
    var openSSLDigestName: String {
        switch self {
        case .hmacSHA256: "SHA256"
        case .hmacSHA512: "SHA512"
        }
    }

    /// The registry name.
    public var description: String { rawValue }
}
