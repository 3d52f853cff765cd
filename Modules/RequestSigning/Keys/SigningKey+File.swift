import COpenSSL

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension SigningKey {
    /// The largest key file read, in bytes.
    static let maximumKeyFileSize = 16_384

    /// Loads a key from a file holding the secret as one line of standard base64 (a trailing
    /// line break and surrounding spaces are ignored; padding may be left out).
    ///
    /// The file's bytes and the decoded secret are cleared from memory once the key is made.
    /// - Parameters:
    ///   - id: The key identifier.
    ///   - algorithm: The HMAC variant.
    ///   - tag: The module the key signs for, or `nil`.
    ///   - path: The file.
    /// - Throws: ``KeyLoadingError``: missing, unreadable, empty, not base64, too short.
    public static func load(
        id: String,
        algorithm: SigningAlgorithm = .hmacSHA256,
        tag: String?,
        fromFile path: String
    ) throws(KeyLoadingError) -> SigningKey {
        var content = try readKeyFile(path)
        defer { content.withUnsafeMutableBytes { OPENSSL_cleanse($0.baseAddress, $0.count) } }
        var start = 0
        var end = content.count
        while start < end && isSpace(content[start]) { start += 1 }
        while end > start && isSpace(content[end - 1]) { end -= 1 }
        guard start < end else { throw KeyLoadingError(.empty, path: path, "the file holds no key") }
        var decoded = content.withUnsafeBufferPointer { buffer in
            Base64.decode(UnsafeBufferPointer(rebasing: buffer[start..<end]))
        }
        defer {
            if decoded != nil { decoded!.withUnsafeMutableBytes { OPENSSL_cleanse($0.baseAddress, $0.count) } }
        }
        guard let secret = decoded else {
            let multiline = content[start..<end].contains(0x0A)
            throw KeyLoadingError(
                .notBase64, path: path,
                multiline
                    ? "the file must hold one line of base64, and it has several"
                    : "the file is not valid base64 (standard alphabet A-Z a-z 0-9 + /)")
        }
        guard secret.count >= minimumSecretLength else {
            throw KeyLoadingError(
                .tooShort, path: path,
                "the key is \(secret.count) bytes; at least \(minimumSecretLength) are required")
        }
        do {
            return try SigningKey(id: id, algorithm: algorithm, tag: tag, secret: secret)
        } catch {
            throw KeyLoadingError(.invalidKey, path: path, error.message)
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// Reads a whole file with POSIX calls, so that a missing file and an unreadable one can be
    /// told apart.
    private static func readKeyFile(_ path: String) throws(KeyLoadingError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR {
                throw KeyLoadingError(.missing, path: path, "no such file")
            }
            throw KeyLoadingError(.unreadable, path: path, "cannot open the file: \(errorText(code))")
        }
        defer { close(descriptor) }
        var content = [UInt8](repeating: 0, count: maximumKeyFileSize + 1)
        var length = 0
        while length < content.count {
            let count = content.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + length, buffer.count - length)
            }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                content.withUnsafeMutableBytes { OPENSSL_cleanse($0.baseAddress, $0.count) }
                throw KeyLoadingError(.unreadable, path: path, "cannot read the file: \(errorText(code))")
            }
            if count == 0 { break }
            length += count
        }
        guard length <= maximumKeyFileSize else {
            content.withUnsafeMutableBytes { OPENSSL_cleanse($0.baseAddress, $0.count) }
            throw KeyLoadingError(
                .unreadable, path: path, "the file is larger than \(maximumKeyFileSize) bytes, so it is not a key file")
        }
        content.withUnsafeMutableBytes { OPENSSL_cleanse($0.baseAddress! + length, $0.count - length) }
        content.removeSubrange(length...)
        return content
    }

    private static func errorText(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
