public import Foundation

/// What the generator needs to know about a repository, read before anything is written.
public struct RepositorySnapshot: Sendable, Equatable {
    /// The text of `Package.swift`.
    public var manifest: String
    /// The text of the feature-module registry.
    public var registry: String
    /// The text of the app API's OpenAPI document.
    public var openAPIDocument: String
    /// The paths (relative to the root) that already exist among those the generator would create.
    public var existingPaths: Set<String>
    /// The public type names declared by the repository's `Modules/` targets.
    public var publicTypeNames: Set<String>

    /// Creates a snapshot from its parts (tests build them from strings).
    public init(
        manifest: String, registry: String, openAPIDocument: String, existingPaths: Set<String> = [],
        publicTypeNames: Set<String> = []
    ) {
        self.manifest = manifest
        self.registry = registry
        self.openAPIDocument = openAPIDocument
        self.existingPaths = existingPaths
        self.publicTypeNames = publicTypeNames
    }

    /// Reads a repository for `spec`.
    /// - Throws: ``ScaffoldingError`` with code `repository` when `Package.swift`, the registry or
    ///   the OpenAPI document cannot be read.
    public static func read(root: URL, for spec: ModuleSpec) throws(ScaffoldingError) -> RepositorySnapshot {
        let manifest = try text(of: "Package.swift", in: root)
        let registry = try text(of: RegistryEditor.path, in: root)
        let openAPIDocument = try text(of: OpenAPIEditor.path, in: root)
        let candidates =
            [spec.moduleDirectory, spec.testDirectory]
            + ModuleTemplate.files(for: spec).map(\.path)
        let existing = candidates.filter {
            FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path)
        }
        return RepositorySnapshot(
            manifest: manifest,
            registry: registry,
            openAPIDocument: openAPIDocument,
            existingPaths: Set(existing),
            publicTypeNames: publicTypes(under: root.appendingPathComponent("Modules"))
        )
    }

    private static func text(of path: String, in root: URL) throws(ScaffoldingError) -> String {
        let url = root.appendingPathComponent(path)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ScaffoldingError(
                .repository,
                "cannot read \(url.path): run new-module from the repository root or pass --repo DIR"
            )
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The names after `public struct|enum|class|actor|protocol|typealias` in every Swift file
    /// under `directory`.
    static func publicTypes(under directory: URL) -> Set<String> {
        guard let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
            return []
        }
        var names = Set<String>()
        for case let url as URL in files where url.pathExtension == "swift" {
            guard let data = FileManager.default.contents(atPath: url.path) else { continue }
            names.formUnion(publicTypes(in: String(decoding: data, as: UTF8.self)))
        }
        return names
    }

    /// The names after `public struct|enum|class|actor|protocol|typealias` in Swift source text.
    static func publicTypes(in source: String) -> Set<String> {
        let kinds: Set<String> = ["struct", "enum", "class", "actor", "protocol", "typealias"]
        var names = Set<String>()
        for line in source.split(separator: "\n") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == ":" || $0 == "<" || $0 == "{" })
            for index in words.indices.dropLast(2) where words[index] == "public" || words[index] == "open" {
                var kindIndex = words.index(after: index)
                if words[kindIndex] == "final" { kindIndex = words.index(after: kindIndex) }
                guard kindIndex < words.index(before: words.endIndex), kinds.contains(String(words[kindIndex])) else {
                    continue
                }
                names.insert(String(words[words.index(after: kindIndex)]))
            }
        }
        return names
    }
}
