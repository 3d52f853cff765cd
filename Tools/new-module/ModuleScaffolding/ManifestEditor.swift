import Foundation

/// Reads and edits `Package.swift` as text: the sorted `featureModules` array, one line per module.
public enum ManifestEditor {
    /// The line that opens the array.
    static let opening = "let featureModules: [String] = ["

    /// The modules listed in `featureModules`, in file order.
    /// - Throws: ``ScaffoldingError`` with code `repository` when the array is not found in the
    ///   expected shape (`let featureModules: [String] = [`, then one `"Name",` per line, then `]`).
    public static func featureModules(in manifest: String) throws(ScaffoldingError) -> [String] {
        try locate(in: manifest).names
    }

    /// The manifest with `moduleName` inserted into `featureModules`, keeping it sorted; every
    /// other line is unchanged.
    /// - Throws: ``ScaffoldingError`` with code `repository` for an unrecognised manifest, or
    ///   `nameClash` when the module is already listed.
    public static func addingFeatureModule(_ moduleName: String, to manifest: String) throws(ScaffoldingError)
        -> String
    {
        let array = try locate(in: manifest)
        guard !array.names.contains(moduleName) else {
            throw ScaffoldingError(.nameClash, "\(moduleName) is already in featureModules in Package.swift")
        }
        var lines = manifest.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let position = array.names.firstIndex { $0 > moduleName } ?? array.names.count
        lines.insert("\(array.indentation)\"\(moduleName)\",", at: array.firstLine + position)
        return lines.joined(separator: "\n")
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

    private struct ArrayLines {
        /// The index of the first element line (the line after the opening).
        var firstLine: Int
        var names: [String]
        var indentation: String
    }

    private static func locate(in manifest: String) throws(ScaffoldingError) -> ArrayLines {
        let lines = manifest.split(separator: "\n", omittingEmptySubsequences: false)
        let openings = lines.indices.filter { lines[$0].trimmingSpaces == opening }
        guard openings.count == 1, let open = openings.first else {
            throw ScaffoldingError(
                .repository,
                "Package.swift must have exactly one line \"\(opening)\" (found \(openings.count))"
            )
        }
        var names: [String] = []
        var indentation = "    "
        var index = open + 1
        while index < lines.count {
            let line = lines[index]
            let text = line.trimmingSpaces
            if text == "]" {
                return ArrayLines(firstLine: open + 1, names: names, indentation: indentation)
            }
            let name = text.dropFirst().dropLast(2)
            guard text.hasPrefix("\""), text.hasSuffix("\","), !name.isEmpty, name.allSatisfy(\.isIdentifierCharacter)
            else {
                throw ScaffoldingError(
                    .repository,
                    "Package.swift line \(index + 1) in featureModules is not one \"Name\", entry: \(text)"
                )
            }
            if names.isEmpty { indentation = String(line.prefix { $0 == " " }) }
            names.append(String(name))
            index += 1
        }
        throw ScaffoldingError(.repository, "the featureModules array in Package.swift has no closing ]")
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
