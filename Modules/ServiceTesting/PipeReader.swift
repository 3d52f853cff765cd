public import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a child process's output pipe safely.
///
/// Foundation's `FileHandle.readDataToEndOfFile()` and `availableData` trap when `read(2)` is
/// interrupted by a signal (`EINTR`), which happens when another child exits while a test reads
/// (Foundation's `Process` handles `SIGCHLD`). These read with `read(2)` and retry on `EINTR`.
public enum PipeReader {
    /// Reads until end of file.
    public static func readToEnd(_ handle: FileHandle) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        // Bounded by the pipe: each turn reads at least one byte, or ends at EOF or an error.
        while true {
            let count = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                data.append(contentsOf: buffer[0..<count])
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return data
            }
        }
    }
}

/// Collects everything a pipe delivers, read on a thread of its own (EINTR-safe, see
/// ``PipeReader``), so a test can read a long-running child's output while it runs.
public final class PipeCollector: Sendable {
    private final class Storage: Sendable {
        let state = Mutex<(data: Data, ended: Bool)>((Data(), false))
    }

    private let storage = Storage()

    /// Starts reading `handle` until end of file.
    public init(_ handle: FileHandle) {
        let storage = self.storage
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 16 << 10)
            // Each turn reads at least one byte, or ends at end of file or an error.
            while true {
                let count = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    storage.state.withLock { $0.data.append(contentsOf: buffer[0..<count]) }
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    storage.state.withLock { $0.ended = true }
                    return
                }
            }
        }
        thread.name = "pipe-collector"
        thread.start()
    }

    /// The bytes so far.
    public var data: Data { storage.state.withLock { $0.data } }

    /// The bytes so far as UTF-8 text.
    public var text: String { String(decoding: data, as: UTF8.self) }

    /// Whether the pipe has ended.
    public var ended: Bool { storage.state.withLock { $0.ended } }

    /// Waits (at most `limit`) for the end of the pipe and returns everything read.
    public func waitForEnd(limit: Duration = .seconds(10)) async -> Data {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        while clock.now < deadline && !ended {
            try? await Task.sleep(for: .milliseconds(5))
        }
        return data
    }
}
