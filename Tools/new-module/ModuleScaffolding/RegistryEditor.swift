/// Reads and edits `Apps/SwiftyDaemon/FeatureModuleRegistry.swift` as text: its imports and the
/// sorted `modules` array, one `<Name>ModuleIdentity.registration,` line per module.
public enum RegistryEditor {
    /// The registry's path relative to the repository root.
    public static let path = "Apps/SwiftyDaemon/FeatureModuleRegistry.swift"
    /// The line that opens the array.
    static let opening = "public static let modules: [Module] = ["

    private static let list = SortedLineList(
        file: path,
        arrayName: "modules",
        opening: opening,
        prefix: "",
        suffix: "Identity.registration,",
        entryShape: "\"<Name>ModuleIdentity.registration,\"",
        namesArrayInLineErrors: false,
        defaultIndentation: "        "
    )

    /// The modules registered, in file order.
    /// - Throws: ``ScaffoldingError`` with code `repository` when the file is not in the expected shape.
    public static func registeredModules(in source: String) throws(ScaffoldingError) -> [String] {
        try list.locate(in: source).names
    }

    /// The registry with `moduleName` imported and registered, both kept sorted.
    /// - Throws: ``ScaffoldingError`` with code `repository` for an unrecognised file, or
    ///   `nameClash` when the module is already registered.
    public static func registering(_ moduleName: String, in source: String) throws(ScaffoldingError) -> String {
        var lines = try list.inserting(
            moduleName,
            into: source,
            clash: "\(moduleName) is already registered in \(path)"
        )

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
}
