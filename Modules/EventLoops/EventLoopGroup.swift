import Foundation
import Synchronization

/// A fixed set of ``EventLoop``s on threads of their own, made once and shared: the HTTP
/// server's network threads and the loops its transports run upstream calls on.
///
/// Hand the same group to the server and to the transports its handlers call: a transport finds
/// the caller's loop with ``loopOfCaller``, so an upstream call runs on the handler's own thread.
///
/// ```swift
/// let loops = try EventLoopGroup(loopCount: 2, name: "http")
/// let transport = CurlTransport(eventLoops: loops)
/// // ... the server and the transport run; then, after both have stopped:
/// await loops.shutdown()
/// ```
public final class EventLoopGroup: Sendable {
    /// The loops, each on its own thread named `name-index`.
    public let loops: [EventLoop]
    private let nextIndex = Atomic<Int>(0)

    /// The number of CPUs this process may run on (``CPUAffinity/allowedCPUCount()``, at most
    /// the active cores): the default loop count. Two loops pinned to one core take turns on it
    /// and do less than one would.
    public static var defaultLoopCount: Int {
        let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
        return min(cores, CPUAffinity.allowedCPUCount() ?? cores)
    }

    /// Creates the loops and starts their threads.
    /// - Parameters:
    ///   - loopCount: How many loops, 1...1024; ``defaultLoopCount`` unless given.
    ///   - name: The threads' name prefix (at most 10 bytes show in `top -H`).
    /// - Throws: ``EventLoopError`` when the count is out of range or the system refuses a loop's
    ///   descriptors; the loops already started are stopped then.
    public init(loopCount: Int = EventLoopGroup.defaultLoopCount, name: String = "loop") throws(EventLoopError) {
        guard (1...1024).contains(loopCount) else {
            throw EventLoopError("an event loop group needs 1...1024 loops, not \(loopCount)")
        }
        var loops: [EventLoop] = []
        for index in 0..<loopCount {
            guard let loop = EventLoop() else {
                for started in loops { started.stop() }
                throw EventLoopError("loop \(index) of \(name): the system refused an epoll or eventfd descriptor")
            }
            loop.start(name: "\(name)-\(index)")
            loops.append(loop)
        }
        self.loops = loops
    }

    deinit {
        stopNow()
    }

    /// The loop whose thread the caller runs on, or `nil` on any other thread (asked of every
    /// loop with ``EventLoop/isCurrent``).
    public var loopOfCaller: EventLoop? {
        for loop in loops where loop.isCurrent { return loop }
        return nil
    }

    /// The next loop in turn, for work that may run on any of them.
    public func next() -> EventLoop {
        loops[nextIndex.wrappingAdd(1, ordering: .relaxed).oldValue % loops.count]
    }

    /// Stops every loop (each runs its last turn: stop handlers, queued work) and returns
    /// once their threads have ended. Work handed over afterwards is refused. Call it after the
    /// servers and transports that use the group have stopped.
    public func shutdown() async {
        // Waiting for the threads must not hold one of Swift's shared pool threads.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread {
                self.stopNow()
                continuation.resume()
            }.start()
        }
    }

    /// Stops every loop and waits for it, from any thread but the loops' own (from one of those,
    /// the waiting moves to a thread of its own and this returns at once).
    package func stopNow() {
        let loops = self.loops
        if loops.contains(where: \.isCurrent) {
            Thread { for loop in loops { loop.stop() } }.start()
        } else {
            for loop in loops { loop.stop() }
        }
    }
}
