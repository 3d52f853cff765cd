import Foundation

/// A validated description of the module to create: its name, domains and signing identity.
///
/// `ModuleSpec(name: "Inventory", baseURL: "https://inventory.example.com")` describes the target
/// `InventoryModule`, the types `InventoryService`, `InventoryClient`, ..., the signing tag
/// `InventoryModule` and the key id `inventory-1`.
public struct ModuleSpec: Sendable, Equatable {
    /// The feature's name, UpperCamelCase, without the `Module` suffix: `Inventory`.
    public let name: String
    /// The production base URL.
    public let productionBaseURL: String
    /// The staging base URL, if known.
    public let stagingBaseURL: String?
    /// The default signing key id (the RFC 9421 `keyid`).
    public let keyID: String

    /// The longest name accepted, so generated type names stay readable.
    public static let maximumNameLength = 30

    /// Validates and creates a spec.
    /// - Parameters:
    ///   - name: UpperCamelCase ASCII letters and digits, starting with a capital letter, at most
    ///     30 characters, not ending in `Module`.
    ///   - baseURL: The production base URL, absolute `http(s)` with a host and no query,
    ///     fragment or credentials.
    ///   - stagingBaseURL: The staging base URL, with the same rules, or `nil`.
    ///   - keyID: The default key id, or `nil` for `<slug>-1` (`inventory-1`).
    /// - Throws: ``ScaffoldingError`` with code `invalidName`, `invalidBaseURL` or `invalidKeyID`.
    public init(name: String, baseURL: String, stagingBaseURL: String? = nil, keyID: String? = nil)
        throws(ScaffoldingError)
    {
        try Self.validate(name: name)
        try Self.validate(baseURL: baseURL, option: "--base-url")
        if let stagingBaseURL { try Self.validate(baseURL: stagingBaseURL, option: "--staging-base-url") }
        let chosenKeyID = keyID ?? "\(Self.slug(for: name))-1"
        try Self.validate(keyID: chosenKeyID)
        self.name = name
        self.productionBaseURL = baseURL
        self.stagingBaseURL = stagingBaseURL
        self.keyID = chosenKeyID
    }

    /// The target's name: `InventoryModule`.
    public var moduleName: String { name + "Module" }
    /// The test target's name: `InventoryModuleTests`.
    public var testTargetName: String { moduleName + "Tests" }
    /// The RFC 9421 `tag` the module's key signs for: the module's name, which the signing
    /// middleware compares with the service's `moduleName`.
    public var tag: String { moduleName }
    /// The feature's name in lowercase words: `inventory`, `order-history`.
    public var slug: String { Self.slug(for: name) }
    /// The module's directory relative to the repository root.
    public var moduleDirectory: String { "Modules/\(moduleName)" }
    /// The test target's directory relative to the repository root.
    public var testDirectory: String { "Tests/\(testTargetName)" }

    /// The daemon's route group of the module: `InventoryRoutes`.
    public var routeGroupName: String { name + "Routes" }
    /// The app route of the generated example: `/v1/inventory/items/:id`.
    public var exampleRoute: String { "/v1/\(slug)/items/:id" }

    /// The public types the generated module declares.
    public var generatedTypeNames: [String] {
        ["Service", "Client", "Domain", "ErrorEnvelope", "ModuleIdentity", "Item"].map { name + $0 }
    }

    /// The kebab-case lowercase form of an UpperCamelCase name: `HTTPProxy` is `http-proxy`.
    public static func slug(for name: String) -> String {
        let characters = Array(name)
        var result = ""
        for (index, character) in characters.enumerated() {
            if index > 0, character.isUppercase {
                let previous = characters[index - 1]
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && next?.isLowercase == true) {
                    result += "-"
                }
            }
            result += character.lowercased()
        }
        return result
    }

    static func validate(name: String) throws(ScaffoldingError) {
        guard !name.isEmpty else { throw ScaffoldingError(.invalidName, "the module name is empty") }
        let bytes = Array(name.utf8)
        let isASCIIAlphanumeric = bytes.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
        }
        guard isASCIIAlphanumeric, (0x41...0x5A).contains(bytes[0]) else {
            throw ScaffoldingError(
                .invalidName,
                "\"\(Self.printable(name))\" is not an UpperCamelCase Swift identifier: use ASCII letters and digits, "
                    + "starting with a capital letter (for example Inventory or OrderHistory)"
            )
        }
        guard name.count <= maximumNameLength else {
            throw ScaffoldingError(.invalidName, "\"\(name)\" is longer than \(maximumNameLength) characters")
        }
        guard !name.hasSuffix("Module") else {
            throw ScaffoldingError(
                .invalidName,
                "give the name without the Module suffix: \"\(name.dropLast(6))\" creates \(name)"
            )
        }
    }

    static func validate(baseURL text: String, option: String) throws(ScaffoldingError) {
        func refuse(_ reason: String) -> ScaffoldingError {
            ScaffoldingError(
                .invalidBaseURL,
                "\(option) \"\(printable(text))\" \(reason); give an absolute http(s) URL such as https://inventory.example.com"
            )
        }
        guard !text.isEmpty else { throw refuse("is empty") }
        guard text.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F }) else {
            throw refuse("has spaces, control characters or non-ASCII characters")
        }
        guard let components = URLComponents(string: text) else { throw refuse("is not a valid URL") }
        guard let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw refuse("is not absolute http or https")
        }
        guard let host = components.host, !host.isEmpty else { throw refuse("has no host") }
        guard components.query == nil, components.fragment == nil else { throw refuse("has a query or fragment") }
        guard components.user == nil, components.password == nil else { throw refuse("holds credentials") }
    }

    static func validate(keyID: String) throws(ScaffoldingError) {
        let bytes = Array(keyID.utf8)
        func isAlphanumeric(_ byte: UInt8) -> Bool {
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
        }
        guard (1...64).contains(bytes.count), isAlphanumeric(bytes[0]),
            bytes.allSatisfy({ isAlphanumeric($0) || $0 == 0x2D || $0 == 0x2E || $0 == 0x5F })
        else {
            throw ScaffoldingError(
                .invalidKeyID,
                "--key-id \"\(printable(keyID))\" must be 1-64 ASCII letters, digits, \".\", \"-\" or \"_\", "
                    + "starting with a letter or digit (for example inventory-1)"
            )
        }
    }

    /// The text with control characters shown as `\u{..}`, so a message cannot break a terminal.
    static func printable(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars.prefix(200) {
            if scalar.properties.generalCategory == .control {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
