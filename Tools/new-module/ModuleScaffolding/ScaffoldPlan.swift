/// Everything the generator will write, decided before anything is written.
public struct ScaffoldPlan: Sendable, Equatable {
    /// Files to create; none exists yet.
    public var newFiles: [GeneratedFile]
    /// Existing files to replace with new contents (`Package.swift`, the registry and the OpenAPI document).
    public var edits: [GeneratedFile]

    /// Creates a plan.
    public init(newFiles: [GeneratedFile], edits: [GeneratedFile]) {
        self.newFiles = newFiles
        self.edits = edits
    }

    /// Checks `spec` against a repository and plans the new module.
    /// - Throws: ``ScaffoldingError`` with code `nameClash` when the module, its test target, a
    ///   directory or one of its public types already exists, or `repository` when the manifest,
    ///   registry or OpenAPI document is not in the expected shape. Nothing has been written when it throws.
    public static func make(for spec: ModuleSpec, in repository: RepositorySnapshot) throws(ScaffoldingError)
        -> ScaffoldPlan
    {
        let listed = try ManifestEditor.featureModules(in: repository.manifest)
        let declared = ManifestEditor.declaredTargetNames(in: repository.manifest)
        for target in [spec.moduleName, spec.testTargetName] where listed.contains(target) || declared.contains(target)
        {
            throw ScaffoldingError(.nameClash, "a target named \(target) already exists in Package.swift")
        }
        if let existing = repository.existingPaths.sorted().first {
            throw ScaffoldingError(.nameClash, "\(existing) already exists; choose another name or remove it first")
        }
        if let type = spec.generatedTypeNames.first(where: repository.publicTypeNames.contains) {
            throw ScaffoldingError(
                .nameClash,
                "the module would declare \(type), which a module under Modules/ already declares publicly"
            )
        }
        let manifest = try ManifestEditor.addingFeatureModule(spec.moduleName, to: repository.manifest)
        let registry = try RegistryEditor.registering(spec, in: repository.registry)
        let openAPIDocument = try OpenAPIEditor.adding(spec, to: repository.openAPIDocument)
        return ScaffoldPlan(
            newFiles: ModuleTemplate.files(for: spec),
            edits: [
                GeneratedFile(path: "Package.swift", contents: manifest),
                GeneratedFile(path: RegistryEditor.path, contents: registry),
                GeneratedFile(path: OpenAPIEditor.path, contents: openAPIDocument),
            ]
        )
    }
}
