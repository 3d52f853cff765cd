import CMicroHTTPD
import EventLoops
import Glibc

/// Drives one libmicrohttpd daemon (external-polling mode, epoll) from an ``EventLoops/EventLoop``:
/// its epoll descriptor is polled beside the loop's, `MHD_run` runs every turn, and its timeout
/// bounds the loop's wait. The loop is the task executor of the requests the daemon dispatches.
///
/// The first driver of a server also answers handlers past their timeout (``ServerCore/expireOverdue(now:)``).
final class MHDLoopDriver: EventLoopHook, @unchecked Sendable {
    // `@unchecked Sendable`: `daemon` and `descriptor` are written once, before the driver is
    // handed to its loop (the hand-over orders the writes); the daemon, a C handle, is then run
    // on the loop's thread only (the hook contract) until the server removes the driver and
    // stops it. `nextSweep` is touched on the loop's thread only.

    let core: ServerCore
    let loop: EventLoop
    /// The daemon; set once, right after it is created with this driver as its `cls`.
    var daemon: OpaquePointer?
    /// libmicrohttpd's epoll descriptor.
    var descriptor: Int32 = -1
    private let sweepInterval: Duration?
    private var nextSweep: ContinuousClock.Instant?

    /// - Parameter sweepInterval: How often this driver runs ``ServerCore/expireOverdue(now:)``; `nil` for never.
    init(core: ServerCore, loop: EventLoop, sweepInterval: Duration?) {
        self.core = core
        self.loop = loop
        self.sweepInterval = sweepInterval
        nextSweep = sweepInterval.map { .now + $0 }
    }

    func run() {
        if let due = nextSweep, let interval = sweepInterval {
            let now = ContinuousClock.now
            if now >= due {
                _ = core.expireOverdue(now: now)
                nextSweep = now + interval
            }
        }
        if let daemon { _ = MHD_run(daemon) }
    }

    func longestWait(now: ContinuousClock.Instant) -> Int32 {
        var timeout: Int32 = 1000
        var mhdTimeout: UInt64 = 0
        if let daemon, MHD_get_timeout(daemon, &mhdTimeout) == .YES { timeout = Int32(min(mhdTimeout, 1000)) }
        if let due = nextSweep { timeout = min(timeout, EventLoop.milliseconds(from: now, to: due)) }
        return timeout
    }
}
