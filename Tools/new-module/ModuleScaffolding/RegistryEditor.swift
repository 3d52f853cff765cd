/// Reads and edits `Apps/SwiftyDaemon/FeatureModuleRegistry.swift` as text: its imports, the
/// sorted `modules` array (one `<Name>ModuleIdentity.self,` line per module) and the sorted
/// `routeGroups` array (one `<Name>Routes.self,` line per route group).
public enum RegistryEditor {
    /// The registry's path relative to the repository root.
    public static let path = "Apps/SwiftyDaemon/FeatureModuleRegistry.swift"

    private static let modules = SortedLineList(
        file: path,
        arrayName: "modules",
        opening: "public static let modules: [any ModuleIdentity.Type] = [",
        prefix: "",
        suffix: "Identity.self,",
        entryShape: "\"<Name>ModuleIdentity.self,\"",
        namesArrayInLineErrors: true,
        defaultIndentation: "        "
    )

    private static let routeGroups = SortedLineList(
        file: path,
        arrayName: "routeGroups",
        opening: "static let routeGroups: [any AppRouteGroup.Type] = [",
        prefix: "",
        suffix: "Routes.self,",
        entryShape: "\"<Name>Routes.self,\"",
        namesArrayInLineErrors: true,
        defaultIndentation: "        "
    )

    /// The modules registered, in file order.
    /// - Throws: ``ScaffoldingError`` with code `repository` when the file is not in the expected shape.
    public static func registeredModules(in source: String) throws(ScaffoldingError) -> [String] {
        try modules.locate(in: source).names
    }

    /// The route groups registered, in file order, by type name (`FeedRoutes`).
    /// - Throws: ``ScaffoldingError`` with code `repository` when the file is not in the expected shape.
    public static func registeredRouteGroups(in source: String) throws(ScaffoldingError) -> [String] {
        try routeGroups.locate(in: source).names.map { $0 + "Routes" }
    }

    /// The registry with the module of `spec` imported and registered, and its route group
    /// registered, all three lists kept sorted.
    /// - Throws: ``ScaffoldingError`` with code `repository` for an unrecognised file, or
    ///   `nameClash` when the module or its route group is already registered.
    public static func registering(_ spec: ModuleSpec, in source: String) throws(ScaffoldingError) -> String {
        let moduleName = spec.moduleName
        let withModule = try modules.inserting(
            moduleName,
            into: source,
            clash: "\(moduleName) is already registered in \(path)"
        ).joined(separator: "\n")
        var lines = try routeGroups.inserting(
            spec.name,
            into: withModule,
            clash: "\(spec.routeGroupName) is already registered in \(path)"
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
