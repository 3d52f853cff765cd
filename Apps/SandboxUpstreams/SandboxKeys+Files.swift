import Foundation
import RequestSigning

#if canImport(Glibc)
    import Glibc
#endif

extension SandboxKeys {
    /// The file that holds a key in a key directory: `<keyID>.key`.
    public static func fileName(forKeyID keyID: String) -> String { "\(keyID).key" }

    /// Loads the three keys from `<keyID>.key` files in a directory, each one line of base64
    /// (RequestSigning's key-file format).
    /// - Parameters:
    ///   - directory: The directory.
    ///   - keyIDs: Key ids to use instead of the modules' defaults (`user-1`, `feed-1`, `payment-1`).
    /// - Throws: ``SandboxError`` with code `keyFile` naming the file and the problem.
    public static func load(fromDirectory directory: String, keyIDs: [SandboxService: String] = [:])
        throws(SandboxError) -> SandboxKeys
    {
        func load(_ service: SandboxService) throws(SandboxError) -> SandboxKey {
            let keyID = keyIDs[service] ?? service.defaultKeyID
            guard isSafeFileName(keyID) else {
                throw SandboxError(.invalidKey, service: service, "the key id \"\(keyID)\" cannot name a key file")
            }
            let path = (directory as NSString).appendingPathComponent(fileName(forKeyID: keyID))
            do {
                let key = try SigningKey.load(id: keyID, tag: service.tag, fromFile: path)
                return SandboxKey(service: service, signingKey: key)
            } catch {
                throw SandboxError(.keyFile, service: service, error.description)
            }
        }
        return try SandboxKeys(user: load(.user), feed: load(.feed), payment: load(.payment))
    }

    /// Writes the three keys as `<keyID>.key` files (one line of base64, mode 0600) into
    /// `directory`, creating it (mode 0700) if needed and replacing existing files.
    /// - Throws: ``SandboxError`` with code `keyFile`; also when a key was loaded from a file
    ///   (its bytes are not kept).
    public func write(toDirectory directory: String) throws(SandboxError) {
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            do {
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw SandboxError(.keyFile, "cannot create the key directory \(directory): \(error)")
            }
        } else if !isDirectory.boolValue {
            throw SandboxError(.keyFile, "\(directory) exists and is not a directory")
        }
        for key in all {
            guard let secret = key.secret else {
                throw SandboxError(
                    .keyFile, service: key.service,
                    "the key \"\(key.keyID)\" was loaded from a file; its bytes are not kept")
            }
            guard Self.isSafeFileName(key.keyID) else {
                throw SandboxError(
                    .invalidKey, service: key.service, "the key id \"\(key.keyID)\" cannot name a key file")
            }
            let path = (directory as NSString).appendingPathComponent(Self.fileName(forKeyID: key.keyID))
            try Self.writeSecretFile(Array((Data(secret).base64EncodedString() + "\n").utf8), to: path)
        }
    }

    /// Whether a key id can be used as a file name: not empty, no `/`, not `.` or `..`.
    static func isSafeFileName(_ keyID: String) -> Bool {
        !keyID.isEmpty && !keyID.contains("/") && keyID != "." && keyID != ".." && !keyID.hasPrefix(".")
    }

    /// Writes `content` to a temporary file of mode 0600 beside `path`, then renames it over `path`.
    private static func writeSecretFile(_ content: [UInt8], to path: String) throws(SandboxError) {
        var content = content
        defer { content.withUnsafeMutableBytes { if let base = $0.baseAddress { _ = memset(base, 0, $0.count) } } }
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw SandboxError(.keyFile, "cannot create \(temporary): \(String(cString: strerror(errno)))")
        }
        var offset = 0
        var failure: Int32 = 0
        while offset < content.count {
            let written = content.withUnsafeBytes {
                Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                failure = errno
                break
            }
            offset += written
        }
        if failure == 0 && fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        guard failure == 0, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(failure != 0 ? failure : errno))
            unlink(temporary)
            throw SandboxError(.keyFile, "cannot write \(path): \(reason)")
        }
    }
}
