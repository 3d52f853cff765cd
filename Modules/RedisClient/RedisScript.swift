import COpenSSL

/// A Lua script run with ``RedisClient/evalScript(_:keys:arguments:timeout:)``: by its SHA-1
/// (`EVALSHA`), computed once here, and by its source (`EVAL`) only when Redis does not have it.
public struct RedisScript: Sendable, Hashable {
    /// The Lua source.
    public let source: String
    /// The SHA-1 of the source in lowercase hex, as `SCRIPT LOAD` returns it.
    public let sha1: String

    /// Creates a script and computes its SHA-1.
    public init(_ source: String) {
        self.source = source
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let bytes = Array(source.utf8)
        // SHA-1 cannot fail for bytes in memory; a failure would leave the hash empty and every
        // call would fall back to EVAL.
        _ = bytes.withUnsafeBytes { input in
            EVP_Digest(input.baseAddress, input.count, &digest, &length, EVP_sha1(), nil)
        }
        let hex: [Character] = Array("0123456789abcdef")
        var text = ""
        for byte in digest.prefix(Int(length)) {
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0xF)])
        }
        sha1 = text
    }
}
