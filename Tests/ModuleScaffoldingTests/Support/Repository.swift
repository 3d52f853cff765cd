import Foundation

/// Paths and sample texts shared by the generator's tests.
enum Repository {
    /// The repository this test file belongs to (three levels above it).
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // ModuleScaffoldingTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// The text of a file of the repository.
    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The repository's own OpenAPI document.
    static var openAPIDocument: String {
        (try? text("Apps/SwiftyDaemon/Resources/openapi.json")) ?? ""
    }

    /// A manifest in the shape `new-module` edits.
    static let manifest = """
        // swift-tools-version:6.1
        import PackageDescription

        let featureModules: [String] = [
            "FeedModule",
            "PaymentModule",
            "UserModule",
        ]

        let package = Package(name: "Swifty", targets: [])
        package.targets += [
            .target(name: "ServiceCore", path: "Modules/ServiceCore"),
            .target(name: "ServiceCoreTests", path: "Tests/ServiceCoreTests"),
        ]

        """

    /// A registry in the shape `new-module` edits.
    static let registry = """
        import FeedModule
        import PaymentModule
        public import ServiceCore
        import UserModule

        public enum FeatureModuleRegistry {
            public static let modules: [any ModuleIdentity.Type] = [
                FeedModuleIdentity.self,
                PaymentModuleIdentity.self,
                UserModuleIdentity.self,
            ]

            static let routeGroups: [any AppRouteGroup.Type] = [
                FeedRoutes.self,
                HomeRoutes.self,
                PaymentRoutes.self,
                UserRoutes.self,
            ]
        }

        """

    /// A fresh temporary directory holding a minimal repository: the manifest, the registry, the
    /// OpenAPI document and one public type under `Modules/`.
    static func makeMinimal() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("new-module-tests-\(UUID().uuidString)", isDirectory: true)
        let files = [
            "Package.swift": manifest,
            "Apps/SwiftyDaemon/FeatureModuleRegistry.swift": registry,
            "Apps/SwiftyDaemon/Resources/openapi.json": openAPIDocument,
            "Modules/ServiceCore/ServiceClient.swift": "public struct ServiceClient<S: Service>: Sendable {}\n",
        ]
        for (path, text) in files {
            let url = directory.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try Data(text.utf8).write(to: url)
        }
        return directory
    }

    /// Every file under `directory` with its bytes, by relative path.
    static func contents(of directory: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        let base = directory.standardizedFileURL.path
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
            let path = String(url.standardizedFileURL.path.dropFirst(base.count + 1))
            result[path] = try Data(contentsOf: url)
        }
        return result
    }

    /// Every directory under `directory`, by relative path.
    static func directories(of directory: URL) -> Set<String> {
        var result = Set<String>()
        let base = directory.standardizedFileURL.path
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isDirectoryKey])
        while let url = enumerator?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true else { continue }
            result.insert(String(url.standardizedFileURL.path.dropFirst(base.count + 1)))
        }
        return result
    }
}
