import COpenSSL

/// The OpenSSL algorithm objects, fetched once per process.
///
/// `@unchecked Sendable`: fetched `EVP_MD` objects are immutable reference-counted
/// objects that OpenSSL documents as safe to share between threads; they are never freed.
final class OpenSSLAlgorithms: @unchecked Sendable {
    /// The shared instance.
    static let shared = OpenSSLAlgorithms()

    /// `EVP_MD_fetch(NULL, "SHA256", NULL)`.
    let sha256: OpaquePointer?
    /// `EVP_MD_fetch(NULL, "SHA512", NULL)`.
    let sha512: OpaquePointer?

    private init() {
        sha256 = EVP_MD_fetch(nil, "SHA256", nil)
        sha512 = EVP_MD_fetch(nil, "SHA512", nil)
        ERR_clear_error()
    }

    /// The digest for an algorithm, or an error naming what is missing.
    func requireDigest(_ algorithm: DigestAlgorithm) throws(SigningError) -> OpaquePointer {
        let md: OpaquePointer? =
            switch algorithm {
            case .sha256: sha256
            case .sha512: sha512
            }
        guard let md else {
            throw SigningError(.cryptoFailure, "OpenSSL provides no \(algorithm) digest (EVP_MD_fetch failed)")
        }
        return md
    }
}
