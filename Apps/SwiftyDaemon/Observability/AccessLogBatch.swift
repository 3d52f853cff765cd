import AppLogging
import EventLoops
import ServiceCore
import Synchronization

/// Writes the access-log lines of the requests an event loop finishes together, about a dozen per
/// `write(2)`, instead of one each.
///
/// A line written on the thread of one of its ``EventLoops/EventLoopGroup``'s loops (where the
/// server runs its handlers) joins that loop's pending lines; the first one hands the loop a flush
/// for the end of its turn (``EventLoops/EventLoop/atEndOfTurn(_:)``), which it runs once every
/// ready connection of the turn is served, before it waits for the network again (and on its last
/// turn, when it stops). So every line is written within the loop turn that finished its request,
/// in the order the requests finished, and the requests answered in one turn share their system
/// calls.
/// A line written on any other thread, or once the loop has stopped, is written at once; pending
/// lines past ``flushThreshold`` bytes are written at once too.
///
/// Each `write(2)` holds whole lines and at most ``atomicWriteLimit`` bytes (unless one line is
/// longer): on a pipe or a stream socket (journald's), a write that size is not split, so
/// another thread's lines never land inside one of ours.
final class AccessLogBatch: Sendable {
    /// Pending bytes past which a loop's lines are written without waiting for the flush.
    static let flushThreshold = 64 * 1024
    /// The most bytes one write holds when it holds more than one line: Linux's `PIPE_BUF`.
    static let atomicWriteLimit = 4096

    /// One loop's waiting lines. Only that loop's thread writes and flushes them, so their lock
    /// is never contended: it costs an uncontended atomic exchange and keeps the sharing
    /// checked by the compiler.
    private final class LoopLines: Sendable {
        /// Empty from a flush until the next line, which queues the next flush.
        let bytes = Mutex<[UInt8]>([])
    }

    /// The lines waiting per loop, keyed by the loop's identity; made once, read without a lock.
    private let pending: [ObjectIdentifier: LoopLines]
    private let sink: @Sendable (UnsafeRawBufferPointer) -> Void
    private let eventLoops: EventLoopGroup?

    /// Creates a batch that hands whole lines to `sink` (one call per write).
    /// - Parameter eventLoops: The loops whose lines are batched (the server's); `nil` for none.
    init(eventLoops: EventLoopGroup?, sink: @escaping @Sendable (UnsafeRawBufferPointer) -> Void) {
        self.eventLoops = eventLoops
        self.sink = sink
        let loops = eventLoops?.loops ?? []
        pending = Dictionary(uniqueKeysWithValues: loops.map { (ObjectIdentifier($0), LoopLines()) })
    }

    /// Creates a batch that writes to `stream`.
    convenience init(stream: StreamLogHandler, eventLoops: EventLoopGroup?) {
        self.init(eventLoops: eventLoops) { bytes in stream.writeBytes(bytes) }
    }

    /// Adds one line: `appendLine` appends it, newline included, to the bytes it is handed (the
    /// loop's pending lines, so the line is written in place). Inlined, so that the closure reads
    /// the caller's line where it is instead of copying it.
    @inline(__always)
    func write(_ appendLine: (inout [UInt8]) -> Void) {
        guard let loop = eventLoops?.loopOfCaller, let lines = pending[ObjectIdentifier(loop)] else {
            var line: [UInt8] = []
            appendLine(&line)
            line.withUnsafeBytes(sink)
            return
        }
        let (queueFlush, full) = lines.bytes.withLock { bytes -> (Bool, Bool) in
            // The first line since the last flush queues the next one.
            let isFirst = bytes.isEmpty
            appendLine(&bytes)
            return (isFirst, bytes.count >= Self.flushThreshold)
        }
        if full {
            flush(lines)
        } else if queueFlush, !loop.atEndOfTurn({ [self] in flush(lines) }) {
            // The loop has stopped and will run nothing more: write now.
            flush(lines)
        }
    }

    /// Writes the lines waiting for one loop.
    private func flush(_ lines: LoopLines) {
        // Written under the lock, which only this loop's thread takes; the buffer keeps its
        // storage for the next turn's lines instead of growing from empty again.
        lines.bytes.withLock { bytes in
            bytes.withUnsafeBytes { buffer in
                for chunk in Self.chunks(of: buffer) { sink(UnsafeRawBufferPointer(rebasing: buffer[chunk])) }
            }
            bytes.removeAll(keepingCapacity: true)
        }
    }

    /// Splits finished lines into runs of whole lines of at most ``atomicWriteLimit`` bytes; a
    /// longer line is a run of its own.
    static func chunks(of lines: UnsafeRawBufferPointer) -> [Range<Int>] {
        var chunks: [Range<Int>] = []
        var start = 0
        // Bounded: each pass ends a chunk at least one byte long.
        while start < lines.count {
            let limit = min(lines.count, start + atomicWriteLimit)
            var end = limit
            if limit < lines.count {
                // The last line end within the limit, or else the end of the first line.
                var cut = limit
                while cut > start && lines[cut - 1] != UInt8(ascii: "\n") { cut -= 1 }
                if cut > start {
                    end = cut
                } else {
                    end = limit
                    while end < lines.count && lines[end - 1] != UInt8(ascii: "\n") { end += 1 }
                }
            }
            chunks.append(start..<end)
            start = end
        }
        return chunks
    }
}
