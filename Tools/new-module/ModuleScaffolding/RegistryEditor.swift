/// Reads and edits `Apps/SwiftyDaemon/FeatureModuleRegistry.swift` as text: its imports and the
/// sorted `modules` array, one `<Name>ModuleIdentity.registration,` line per module.
public enum RegistryEditor {
    /// The registry's path relative to the repository root.
    public static let path = "Apps/SwiftyDaemon/FeatureModuleRegistry.swift"
    /// The line that opens the array.
    static let opening = "public static let modules: [Module] = ["

    /// The modules registered, in file order.
    /// - Throws: ``ScaffoldingError`` with code `repository` when the file is not in the expected shape.
    public static func registeredModules(in source: String) throws(ScaffoldingError) -> [String] {
        try locate(in: source).names
    }

    /// The registry with `moduleName` imported and registered, both kept sorted.
    /// - Throws: ``ScaffoldingError`` with code `repository` for an unrecognised file, or
    ///   `nameClash` when the module is already registered.
    public static func registering(_ moduleName: String, in source: String) throws(ScaffoldingError) -> String {
        let array = try locate(in: source)
        guard !array.names.contains(moduleName) else {
            throw ScaffoldingError(.nameClash, "\(moduleName) is already registered in \(path)")
        }
        var lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let position = array.names.firstIndex { $0 > moduleName } ?? array.names.count
        lines.insert("\(array.indentation)\(moduleName)Identity.registration,", at: array.firstLine + position)

        let importLines = lines.indices.filter { importedModule(lines[$0]) != nil }
        let newImport = "import \(moduleName)"
        if let before = importLines.first(where: { importedModule(lines[$0]).map { $0 > moduleName } ?? false }) {
            lines.insert(newImport, at: before)
        } else if let last = importLines.last {
            lines.insert(newImport, at: last + 1)
        } else {
            lines.insert(contentsOf: [newImport, ""], at: 0)
        }
        return lines.joined(separator: "\n")
    }

    /// The module a line such as `import X` or `public import X` imports, or `nil`.
    private static func importedModule(_ line: String) -> Substring? {
        var words = line.split(separator: " ")[...]
        if let first = words.first, ["public", "package", "internal"].contains(first) { words = words.dropFirst() }
        guard words.count == 2, words.first == "import" else { return nil }
        return words.last
    }

    private struct ArrayLines {
        var firstLine: Int
        var names: [String]
        var indentation: String
    }

    private static func locate(in source: String) throws(ScaffoldingError) -> ArrayLines {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        let openings = lines.indices.filter { lines[$0].trimmingSpaces == opening }
        guard openings.count == 1, let open = openings.first else {
            throw ScaffoldingError(
                .repository,
                "\(path) must have exactly one line \"\(opening)\" (found \(openings.count))"
            )
        }
        let suffix = "Identity.registration,"
        var names: [String] = []
        var indentation = "        "
        var index = open + 1
        while index < lines.count {
            let line = lines[index]
            let text = line.trimmingSpaces
            if text == "]" {
                return ArrayLines(firstLine: open + 1, names: names, indentation: indentation)
            }
            let name = text.dropLast(suffix.count)
            guard text.hasSuffix(suffix), !name.isEmpty,
                name.allSatisfy(\.isIdentifierCharacter)
            else {
                throw ScaffoldingError(
                    .repository,
                    "\(path) line \(index + 1) is not one \"<Name>ModuleIdentity.registration,\" entry: \(text)"
                )
            }
            if names.isEmpty { indentation = String(line.prefix { $0 == " " }) }
            names.append(String(name))
            index += 1
        }
        throw ScaffoldingError(.repository, "the modules array in \(path) has no closing ]")
    }
}
