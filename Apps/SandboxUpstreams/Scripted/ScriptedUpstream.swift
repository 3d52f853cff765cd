public import RequestSigning

/// A sandbox upstream for a module that has no hand-written one: it verifies every request's
/// signature with the module's key, injects faults, and replies with its ``ScriptedAnswer``s;
/// a path no answer takes is 404 `not_found` (405 for another method).
///
/// The daemon runs one in sandbox mode for every registered module besides the user, feed and
/// payment modules, so a module made by `new-module` can be called at once.
public struct ScriptedUpstream: Sendable {
    /// The module it stands for, for example `InventoryModule`.
    public let module: String
    /// The key it verifies with (and the module signs with): a fresh random secret.
    public let key: SigningKey
    /// Its answers.
    public let answers: [ScriptedAnswer]
    /// The faults it starts with.
    public var faults: FaultSettings

    /// Creates an upstream with a freshly generated key of
    /// ``SandboxKeys/generatedSecretLength`` random bytes.
    /// - Parameters:
    ///   - module: The module's name.
    ///   - keyID: The module's key id (`inventory-1`).
    ///   - tag: The module's RFC 9421 `tag` (its name).
    ///   - answers: Its answers; those of other modules are ignored.
    ///   - faults: The faults it starts with: none unless given.
    /// - Throws: ``SandboxError`` with code `invalidKey` for an invalid key id or tag.
    public init(
        module: String,
        keyID: String,
        tag: String,
        answers: [ScriptedAnswer],
        faults: FaultSettings = .none
    ) throws(SandboxError) {
        var generator = SystemRandomNumberGenerator()
        var secret = [UInt8](repeating: 0, count: SandboxKeys.generatedSecretLength)
        for index in secret.indices { secret[index] = generator.next() }
        do {
            key = try SigningKey(id: keyID, tag: tag, secret: secret)
        } catch {
            throw SandboxError(.invalidKey, "the \(module) key: \(error.message)")
        }
        self.module = module
        self.answers = answers.filter { $0.module == module }
        self.faults = faults
    }
}
