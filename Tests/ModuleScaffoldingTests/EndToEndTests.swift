import Foundation
import ModuleScaffolding
import Testing

/// The guide's commands (`docs/adding-a-module.md`) in a temporary copy of this repository (the
/// tracked and untracked-but-not-ignored files, no build products): `swift run new-module
/// Inventory --base-url https://inventory.example.com`, `swift build --build-tests`, `swift test
/// --filter InventoryModuleTests|OpenAPIDocumentTests`, then `Tools/dev/swifty-dev run --port 0 --admin-port 0` (the
/// daemon in sandbox mode on loopback), and one `curl` with a sandbox token to the new module's
/// route, which answers the example item from the scripted sandbox upstream. The nested build
/// starts cold (several minutes on two cores); each step is bounded by a deadline and its output
/// is printed when it fails.
struct EndToEndTests {
    static let buildLimit: Duration = .seconds(25 * 60)

    @Test(.timeLimit(.minutes(35)))
    func generatedModuleIsRoutedAndAnswersInTheSandbox() async throws {
        let swift = try #require(ProcessRunner.find("swift"), "swift is on PATH")
        let curl = try #require(ProcessRunner.find("curl"), "curl is on PATH")
        let copy = FileManager.default.temporaryDirectory
            .appendingPathComponent("new-module-e2e-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: copy) }
        try await Self.copyRepository(to: copy)
        #expect(!FileManager.default.fileExists(atPath: copy.appendingPathComponent(".build").path))

        let generate = try await ProcessRunner.run(
            swift,
            ["run", "new-module", "Inventory", "--base-url", "https://inventory.example.com"],
            in: copy,
            limit: Self.buildLimit
        )
        try #require(generate.status == 0, "swift run new-module failed:\n\(generate.output)")

        let lint = try await ProcessRunner.run(
            swift,
            [
                "format", "lint", "--strict", "-r", "Modules/InventoryModule", "Tests/InventoryModuleTests",
                "Apps/SwiftyDaemon/Routes/InventoryRoutes.swift", "Apps/SwiftyDaemon/FeatureModuleRegistry.swift",
            ],
            in: copy,
            limit: .seconds(120)
        )
        #expect(lint.status == 0, "the generated files are not swift-format clean:\n\(lint.output)")

        let build = try await ProcessRunner.run(swift, ["build", "--build-tests"], in: copy, limit: Self.buildLimit)
        try #require(
            !build.timedOut, "swift build --build-tests did not finish in \(Self.buildLimit):\n\(build.output)")
        try #require(build.status == 0, "swift build --build-tests failed:\n\(build.output)")
        let warnings = build.output.split(separator: "\n").filter {
            $0.contains("warning:") && $0.contains("Inventory")
        }
        #expect(warnings.isEmpty, "the generated module has warnings:\n\(warnings.joined(separator: "\n"))")

        let test = try await ProcessRunner.run(
            swift,
            // The generated module's tests, and the check that every route is in the OpenAPI document.
            ["test", "--skip-build", "--filter", "InventoryModuleTests|OpenAPIDocumentTests"],
            in: copy,
            limit: .seconds(300)
        )
        #expect(test.status == 0, "swift test --filter InventoryModuleTests failed:\n\(test.output)")
        #expect(test.output.contains("InventoryClientTests"), "the generated tests did not run:\n\(test.output)")
        #expect(!test.output.contains("with 0 tests"), "no test ran:\n\(test.output)")
        #expect(test.output.contains("everyRouteIsDocumentedAndEveryOperationIsServed"), "\(test.output)")

        let daemon = try await SandboxDaemon.start(in: copy, limit: .seconds(300))
        defer { daemon.stop() }
        let call = try await ProcessRunner.run(
            curl,
            [
                "-sS", "--max-time", "20", "-w", "\n%{http_code}", "-H", "Authorization: Bearer sandbox-alice",
                "http://127.0.0.1:\(daemon.port)/v1/inventory/items/i1",
            ],
            in: copy,
            limit: .seconds(30)
        )
        #expect(call.status == 0, "curl failed:\n\(call.output)\ndaemon:\n\(daemon.log)")
        let lines = call.output.split(separator: "\n")
        #expect(lines.last == "200", "the route did not answer 200:\n\(call.output)\ndaemon:\n\(daemon.log)")
        let body = try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: String]
        #expect(body == ["id": "i1", "name": "Sample item"], "unexpected answer: \(call.output)")
        print("new-module end-to-end: build \(build.duration), tests \(test.duration)")
    }

    /// Copies the files git knows (tracked, and untracked but not ignored) to `destination`, or
    /// every file but build products when git is unavailable.
    static func copyRepository(to destination: URL) async throws {
        let root = Repository.root
        var paths: [String] = []
        if let git = ProcessRunner.find("git") {
            let listing = try await ProcessRunner.run(
                git,
                ["ls-files", "--cached", "--others", "--exclude-standard"],
                in: root,
                limit: .seconds(60)
            )
            if listing.status == 0 {
                paths = listing.output.split(separator: "\n").map(String.init)
            }
        }
        if paths.isEmpty {
            let skipped: Set<String> = [".build", ".git", ".swiftpm"]
            let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
            let base = root.standardizedFileURL.path
            while let url = enumerator?.nextObject() as? URL {
                if skipped.contains(url.lastPathComponent) {
                    enumerator?.skipDescendants()
                    continue
                }
                if try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true {
                    paths.append(String(url.standardizedFileURL.path.dropFirst(base.count + 1)))
                }
            }
        }
        for path in paths {
            let source = root.appendingPathComponent(path)
            guard FileManager.default.fileExists(atPath: source.path) else { continue }  // deleted, not staged
            let target = destination.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try FileManager.default.copyItem(at: source, to: target)
        }
        #expect(paths.contains("Package.swift"))
    }
}
