import Foundation
import ServiceTesting
import Testing

/// `dist/swiftyd.service` passes `systemd-analyze verify` (where systemd is installed).
struct SystemdUnitTests {
    static let analyzer = "/usr/bin/systemd-analyze"

    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: analyzer), "systemd-analyze is not installed"))
    func unitPassesVerify() async throws {
        let unit = try String(
            contentsOf: Self.repositoryRoot.appendingPathComponent("dist/swiftyd.service"), encoding: .utf8)
        #expect(unit.contains("Type=notify"))
        #expect(unit.contains("NoNewPrivileges=yes"))
        #expect(unit.contains("ExecReload=/bin/kill -HUP $MAINPID"))
        // Verify a copy that points at the binary this test run built.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("unit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let copy = directory.appendingPathComponent("swiftyd.service")
        try Data(unit.replacingOccurrences(of: "/usr/local/bin/swiftyd", with: DaemonProcess.executable.path).utf8)
            .write(to: copy)
        let outcome = try await ChildProcess.run(Self.analyzer, arguments: ["verify", copy.path], output: .merged)
        let output = outcome.standardOutput
        #expect(outcome.termination?.status == 0, "systemd-analyze verify said:\n\(output)")
        let warnings = output.split(separator: "\n").filter { $0.contains("swiftyd.service") }
        #expect(warnings.isEmpty, "\(warnings)")
    }
}
