public import Foundation

/// Writes a ``ScaffoldPlan`` into a repository, all or nothing.
public enum ScaffoldWriter {
    /// Creates the plan's new files (and their directories) and replaces the edited files.
    ///
    /// If any write fails, the files and directories created so far are removed and the edited
    /// files get their previous contents back, so the repository is as before.
    /// - Throws: ``ScaffoldingError`` with code `nameClash` when a new file appeared since the plan
    ///   was made, or `writeFailed` (after undoing) when the file system refuses a write.
    public static func apply(_ plan: ScaffoldPlan, at root: URL) throws(ScaffoldingError) {
        let files = FileManager.default
        for file in plan.newFiles where files.fileExists(atPath: root.appendingPathComponent(file.path).path) {
            throw ScaffoldingError(.nameClash, "\(file.path) appeared while planning; nothing was written")
        }
        var createdDirectories: [URL] = []
        var createdFiles: [URL] = []
        var replaced: [(url: URL, previous: Data)] = []
        do {
            for file in plan.newFiles {
                let url = root.appendingPathComponent(file.path)
                createdDirectories += try createDirectories(for: url.deletingLastPathComponent())
                try Data(file.contents.utf8).write(to: url, options: .withoutOverwriting)
                createdFiles.append(url)
            }
            for edit in plan.edits {
                let url = root.appendingPathComponent(edit.path)
                let previous = try Data(contentsOf: url)
                try Data(edit.contents.utf8).write(to: url, options: .atomic)
                replaced.append((url, previous))
            }
        } catch {
            for (url, previous) in replaced.reversed() {
                try? previous.write(to: url, options: .atomic)
            }
            for url in createdFiles.reversed() {
                try? files.removeItem(at: url)
            }
            for url in createdDirectories.reversed() {
                try? files.removeItem(at: url)
            }
            throw ScaffoldingError(
                .writeFailed,
                "writing the module failed, and what had been written was removed: \(error.localizedDescription)"
            )
        }
    }

    /// Creates `directory` and its missing parents; returns those created, outermost first.
    private static func createDirectories(for directory: URL) throws -> [URL] {
        var missing: [URL] = []
        var current = directory.standardizedFileURL
        while !FileManager.default.fileExists(atPath: current.path) {
            missing.insert(current, at: 0)
            let parent = current.deletingLastPathComponent()
            if parent.path == current.path { break }
            current = parent
        }
        for url in missing {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        }
        return missing
    }
}
