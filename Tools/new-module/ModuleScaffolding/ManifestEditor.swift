import Foundation

/// Reads and edits `Package.swift` as text: the sorted `featureModules` array, one line per module.
public enum ManifestEditor {
    /// The line that opens the array.
    static let opening = "let featureModules: [String] = ["

    private static let list = SortedLineList(
        file: "Package.swift",
        arrayName: "featureModules",
        opening: opening,
        prefix: "\"",
        suffix: "\",",
        entryShape: "\"Name\",",
        namesArrayInLineErrors: true,
        defaultIndentation: "    "
    )

    /// The modules listed in `featureModules`, in file order.
    /// - Throws: ``ScaffoldingError`` with code `repository` when the array is not found in the
    ///   expected shape (`let featureModules: [String] = [`, then one `"Name",` per line, then `]`).
    public static func featureModules(in manifest: String) throws(ScaffoldingError) -> [String] {
        try list.locate(in: manifest).names
    }

    /// The manifest with `moduleName` inserted into `featureModules`, keeping it sorted; every
    /// other line is unchanged.
    /// - Throws: ``ScaffoldingError`` with code `repository` for an unrecognised manifest, or
    ///   `nameClash` when the module is already listed.
    public static func addingFeatureModule(_ moduleName: String, to manifest: String) throws(ScaffoldingError)
        -> String
    {
        try list.inserting(
            moduleName,
            into: manifest,
            clash: "\(moduleName) is already in featureModules in Package.swift"
        ).joined(separator: "\n")
    }

    /// Every target name declared with `name: "..."` in the manifest (feature modules are
    /// declared through the loop and are not among them).
    public static func declaredTargetNames(in manifest: String) -> Set<String> {
        var names = Set<String>()
        var rest = Substring(manifest)
        while let range = rest.range(of: "name: \"") {
            let after = rest[range.upperBound...]
            guard let end = after.firstIndex(of: "\"") else { break }
            names.insert(String(after[..<end]))
            rest = after[end...]
        }
        return names
    }
}

extension Character {
    /// Whether the character is an ASCII letter, digit or `_`.
    var isIdentifierCharacter: Bool {
        isASCII && (isLetter || isNumber || self == "_")
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
