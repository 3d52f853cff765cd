import Foundation
import ServiceTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `ChildProcess` against small system programs (`/bin/sh`, `/bin/cat`, `/bin/sleep`).
@Suite(.timeLimit(.minutes(1)))
struct ChildProcessTests {
    /// Whether process `pid` is gone: reaped, not even a zombie left.
    private static func isGone(_ pid: Int32) -> Bool {
        kill(pid, 0) == -1 && errno == ESRCH
    }

    @Test(arguments: [0, 3, 255] as [Int32])
    func exitCodesAreReported(_ code: Int32) async throws {
        let outcome = try await ChildProcess.run("/bin/sh", arguments: ["-c", "exit \(code)"])
        #expect(outcome.termination == .exited(code))
        #expect(outcome.termination?.status == code)
    }

    @Test func standardOutputAndErrorAreCapturedApartOrMerged() async throws {
        let script = ["-c", "echo out; echo err >&2"]
        let separate = try await ChildProcess.run("/bin/sh", arguments: script, output: .separate)
        #expect(separate.standardOutput == "out\n")
        #expect(separate.standardError == "err\n")
        let merged = try await ChildProcess.run("/bin/sh", arguments: script, output: .merged)
        #expect(merged.standardOutput == "out\nerr\n")
        #expect(merged.standardError.isEmpty)
        let discarded = try await ChildProcess.run("/bin/sh", arguments: script, output: .discarded)
        #expect(discarded.termination == .exited(0))
        #expect(discarded.standardOutput.isEmpty && discarded.standardError.isEmpty)
    }

    @Test func largeOutputOnBothStreamsDoesNotBlock() async throws {
        let size = 4 << 20
        let child = try ChildProcess(
            "/bin/sh", arguments: ["-c", "head -c \(size) /dev/zero >&2; head -c \(size) /dev/zero"])
        #expect(await child.waitForExit(timeout: .seconds(30)) == .exited(0))
        #expect(child.standardOutput.utf8.count == size)
        #expect(child.standardError.utf8.count == size)
    }

    @Test func inputBytesReachTheChild() async throws {
        let input = Array((0..<200_000).map { "line \($0)\n" }.joined().utf8)
        let child = try ChildProcess("/bin/cat", input: .bytes(input))
        #expect(await child.waitForExit(timeout: .seconds(30)) == .exited(0))
        #expect(Array(child.standardOutput.utf8) == input)
        let empty = try await ChildProcess.run("/bin/cat")
        #expect(empty.termination == .exited(0))
        #expect(empty.standardOutput.isEmpty)
    }

    @Test func environmentAndWorkingDirectoryReachTheChild() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try await ChildProcess.run(
            "/bin/sh", arguments: ["-c", "echo \"$SWIFTY_CHILD_TEST|${HOME-unset}\"; pwd -P"],
            environment: ["SWIFTY_CHILD_TEST": "given value"], workingDirectory: directory.path)
        let expected = directory.resolvingSymlinksInPath().path
        #expect(outcome.standardOutput == "given value|unset\n\(expected)\n")

        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let merged = ChildProcess.environment(overriding: ["SWIFTY_CHILD_TEST": "x"], removing: ["PATH"])
        #expect(merged["SWIFTY_CHILD_TEST"] == "x")
        #expect(merged["PATH"] == nil)
        let inherited = try await ChildProcess.run("/bin/sh", arguments: ["-c", "echo \"$PATH\""])
        #expect(inherited.standardOutput == "\(path)\n")
    }

    @Test func aMissingExecutableOrDirectoryIsAnErrorNamingIt() throws {
        let missing = "/nonexistent/swifty-no-such-program"
        let error = #expect(throws: ChildProcessError.self) { try ChildProcess(missing) }
        #expect(error?.errorNumber == ENOENT)
        #expect(error?.executable == missing)
        #expect(error?.description.contains(missing) == true)
        #expect(error?.description.contains("No such file or directory") == true)

        let directory = #expect(throws: ChildProcessError.self) {
            try ChildProcess("/bin/sh", arguments: ["-c", "true"], workingDirectory: "/nonexistent/swifty-dir")
        }
        #expect(directory?.workingDirectory == "/nonexistent/swifty-dir")
        #expect(directory?.description.contains("/nonexistent/swifty-dir") == true)
    }

    @Test func sigtermEndsASleepingChild() async throws {
        let child = try ChildProcess("/bin/sleep", arguments: ["30"])
        #expect(child.termination == nil)
        child.signal(SIGTERM)
        let termination = await child.waitForExit(timeout: .seconds(10))
        #expect(termination == .signaled(SIGTERM))
        #expect(termination?.status == 128 + SIGTERM)
        #expect(Self.isGone(child.pid))
        child.signal(SIGKILL)  // reaped: does nothing
    }

    @Test func aShortWaitTimesOutThenTheChildIsKilledAndReaped() async throws {
        let child = try ChildProcess("/bin/sleep", arguments: ["30"])
        #expect(await child.waitForExit(timeout: .milliseconds(200)) == nil)
        #expect(child.waitUntilExit(timeout: .milliseconds(100)) == nil)
        #expect(child.termination == nil)
        #expect(!Self.isGone(child.pid))
        child.signal(SIGKILL)
        #expect(await child.waitForExit(timeout: .seconds(10)) == .signaled(SIGKILL))
        #expect(Self.isGone(child.pid))

        let outcome = try await ChildProcess.run("/bin/sleep", arguments: ["30"], timeout: .milliseconds(200))
        #expect(outcome.termination == nil)
    }

    @Test func waitOrKillKillsAChildStillRunningAtTheLimit() async throws {
        let quick = try ChildProcess("/bin/sh", arguments: ["-c", "exit 3"])
        #expect(await quick.waitForExitOrKill(timeout: .seconds(30)) == .exited(3))

        let slow = try ChildProcess("/bin/sleep", arguments: ["30"])
        #expect(await slow.waitForExitOrKill(timeout: .milliseconds(200)) == nil)
        #expect(slow.termination == .signaled(SIGKILL))
        #expect(Self.isGone(slow.pid))
    }

    @Test func aCancelledWaitReturnsAtOnce() async throws {
        let child = try ChildProcess("/bin/sleep", arguments: ["30"])
        let wait = Task { await child.waitForExit(timeout: .seconds(30)) }
        wait.cancel()
        #expect(await wait.value == nil)
        #expect(child.termination == nil)
    }

    @Test func aReleasedChildIsKilledAndReaped() async throws {
        var child: ChildProcess? = try ChildProcess("/bin/sleep", arguments: ["30"])
        let pid = try #require(child?.pid)
        #expect(!Self.isGone(pid))
        child = nil
        var gone = false
        for _ in 0..<500 where !gone {
            gone = Self.isGone(pid)
            if !gone { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(gone, "process \(pid) is still there 5 s after its ChildProcess was released")
    }

    @Test func theChildInheritsNoDescriptorAboveTwo() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("child-fd-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Opened without O_CLOEXEC, so only the launcher's closing keeps it from the child.
        let descriptor = open(path, O_RDONLY)
        try #require(descriptor > 3)
        defer { close(descriptor) }
        let outcome = try await ChildProcess.run("/bin/ls", arguments: ["/proc/self/fd"])
        let listed = Set(outcome.standardOutput.split(separator: "\n").map(String.init))
        // 0-2, and the directory `ls` itself opened to list (the lowest free number, 3).
        #expect(listed == ["0", "1", "2", "3"], "\(outcome.standardOutput)")
        #expect(!listed.contains(String(descriptor)))
    }

    @Test func fiftyConcurrentChildrenAreAllReapedWithTheirCodes() async throws {
        let results = try await withThrowingTaskGroup(of: (Int32, Int32, ChildProcess.Termination?).self) { group in
            for index in 0..<50 {
                let code = Int32(index % 7)
                group.addTask {
                    let child = try ChildProcess("/bin/sh", arguments: ["-c", "exit \(code)"])
                    return (code, child.pid, await child.waitForExit(timeout: .seconds(30)))
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 50)
        for (code, pid, termination) in results {
            #expect(termination == .exited(code))
            #expect(Self.isGone(pid))
        }
        #expect(Set(results.map(\.1)).count == 50)
    }
}
