import CSpawn
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

extension ChildProcess {
    /// What a child reads on standard input.
    public enum Input: Sendable {
        /// `/dev/null`: the child reads the end of input at once.
        case none
        /// These bytes through a pipe that is closed after the last one; they are written on a thread
        /// of their own, so a child that reads late (or never) does not hold up the test.
        case bytes([UInt8])
    }

    /// Where a child's standard output and standard error go.
    public enum Output: Sendable {
        /// Each captured on its own: ``ChildProcess/standardOutput`` and
        /// ``ChildProcess/standardError``.
        case separate
        /// Both captured together, interleaved as written, in ``ChildProcess/standardOutput``.
        case merged
        /// Both to `/dev/null`.
        case discarded
    }

    /// Reads one output pipe of a child to its end on a thread of its own, keeping every byte.
    ///
    /// It reads with `read(2)` and retries on `EINTR` (Foundation's `FileHandle` readers trap on it).
    final class Collector: Sendable {
        private let bytes = Mutex<[UInt8]>([])
        /// Signalled once, when the pipe has ended (every process holding its other end closed it).
        let ended = DispatchSemaphore(value: 0)

        /// Starts reading `descriptor`, which it closes at the end.
        init(reading descriptor: Int32) {
            let thread = Thread { [self] in
                collect(descriptor)
            }
            thread.name = "child-output"
            thread.start()
        }

        /// The bytes so far as UTF-8 text.
        var text: String { bytes.withLock { String(decoding: $0, as: UTF8.self) } }

        private func collect(_ descriptor: Int32) {
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            // Each turn reads at least one byte, or ends at the end of the pipe or on an error.
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    bytes.withLock { $0.append(contentsOf: buffer[0..<count]) }
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            close(descriptor)
            ended.signal()
        }
    }

    /// Writes `bytes` to `descriptor` on a thread of its own, then closes it.
    ///
    /// A child that exits without reading makes the write fail with `EPIPE`; the `SIGPIPE` that
    /// comes with it is blocked on that thread and taken back, so it never reaches the test process.
    static func startWriting(_ bytes: [UInt8], to descriptor: Int32) {
        let thread = Thread {
            var pipeSignal = sigset_t()
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
            var written = 0
            // Each turn writes at least one byte, or ends on an error.
            while written < bytes.count {
                let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
                if count > 0 {
                    written += count
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    var now = timespec()
                    _ = sigtimedwait(&pipeSignal, nil, &now)
                    break
                }
            }
            close(descriptor)
        }
        thread.name = "child-input"
        thread.start()
    }
}
