import Foundation
import RequestSigning

/// Every key each sandbox upstream trusts: for a key rotation an upstream trusts the new key
/// beside the old one until the old is retired.
///
/// In a key directory each upstream trusts every file named `<service>-<suffix>.key` (`user-1.key`,
/// `user-2.key`, ...), the key id being the file name without `.key`; other files are ignored.
///
/// ```swift
/// let ring = try SandboxKeyRing.load(fromDirectory: "/etc/swifty/keys")
/// try sandbox.trust(ring)   // after adding or deleting a key file
/// ```
public struct SandboxKeyRing: Sendable {
    /// The keys each upstream trusts, sorted by key id; at least one each.
    public let keys: [SandboxService: [SandboxKey]]

    /// A ring of one key per upstream.
    public init(_ keys: SandboxKeys) {
        self.keys = Dictionary(uniqueKeysWithValues: keys.all.map { ($0.service, [$0]) })
    }

    private init(keys: [SandboxService: [SandboxKey]]) {
        self.keys = keys
    }

    /// The keys one upstream trusts.
    public subscript(service: SandboxService) -> [SandboxKey] { keys[service] ?? [] }

    /// One key per upstream, for what needs a single one (the keys the sandbox reports): the
    /// module's default key id when it is trusted, otherwise the first by key id.
    public var primary: SandboxKeys {
        get throws(SandboxError) {
            func pick(_ service: SandboxService) throws(SandboxError) -> SandboxKey {
                let trusted = self[service]
                guard let key = trusted.first(where: { $0.keyID == service.defaultKeyID }) ?? trusted.first else {
                    throw SandboxError(.keyFile, service: service, "no key is trusted")
                }
                return key
            }
            return try SandboxKeys(user: pick(.user), feed: pick(.feed), payment: pick(.payment))
        }
    }

    /// Loads every `<service>-<suffix>.key` file in `directory`, one line of base64 each
    /// (RequestSigning's key-file format).
    /// - Throws: ``SandboxError`` with code `keyFile` naming the directory, or the file and its
    ///   problem, or the upstream that has no key file.
    public static func load(fromDirectory directory: String) throws(SandboxError) -> SandboxKeyRing {
        let expected = SandboxService.allCases.map { SandboxKeys.fileName(forKeyID: $0.defaultKeyID) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue,
            let names = try? FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        else {
            throw SandboxError(
                .keyFile,
                "cannot read the key directory \(directory); it should hold a key file per upstream, such as "
                    + expected.joined(separator: ", "))
        }
        var keys: [SandboxService: [SandboxKey]] = [:]
        for name in names where name.hasSuffix(".key") {
            let keyID = String(name.dropLast(4))
            guard SandboxKeys.isSafeFileName(keyID), let dash = keyID.firstIndex(of: "-"),
                let service = SandboxService(rawValue: String(keyID[..<dash]))
            else { continue }
            let path = (directory as NSString).appendingPathComponent(name)
            do {
                let key = try SigningKey.load(id: keyID, tag: service.tag, fromFile: path)
                keys[service, default: []].append(SandboxKey(service: service, signingKey: key))
            } catch {
                throw SandboxError(.keyFile, service: service, error.description)
            }
        }
        for service in SandboxService.allCases where keys[service, default: []].isEmpty {
            throw SandboxError(.keyFile, service: service, "no key file \(service)-*.key in \(directory)")
        }
        return SandboxKeyRing(keys: keys)
    }
}
