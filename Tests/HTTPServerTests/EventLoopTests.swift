import EventLoops
import Foundation
import HTTPServer
import ServiceCore
import Synchronization
import Testing

/// The network threads as `IOEventLoop`s: descriptors, timers, hand-overs and the last turn.
struct EventLoopTests {
    /// Order of events seen on one loop; touched on that loop's thread only.
    private final class Record: @unchecked Sendable {
        // `@unchecked Sendable`: written and read on one event loop's thread only (by the tests below).
        var values: [Int] = []
    }

    private static let oneThread = HTTPServer.Configuration(threadCount: 1)

    @Test func aNetworkThreadIsAnEventLoop() async throws {
        try await withServer(Self.oneThread, handler: { _ in .text(200, "") }) { server in
            let (found, current) = try await server.onNetworkThread {
                (IOEventLoops.current != nil, IOEventLoops.current?.isCurrent ?? false)
            }
            #expect(found)
            #expect(current)
        }
        #expect(IOEventLoops.current == nil)
    }

    @Test func timersFireInDeadlineOrderAndCancelledOnesNever() async throws {
        try await withServer(Self.oneThread, handler: { _ in .text(200, "") }) { server in
            let order = try await server.onNetworkThread { () -> [Int] in
                guard let loop = IOEventLoops.current else { return [] }
                return await withCheckedContinuation { continuation in
                    let record = Record()
                    let now = ContinuousClock.now
                    _ = loop.schedule(at: now + .milliseconds(30)) {
                        record.values.append(30)
                        continuation.resume(returning: record.values)
                    }
                    _ = loop.schedule(at: now + .milliseconds(10)) { record.values.append(10) }
                    let cancelled = loop.schedule(at: now + .milliseconds(15)) { record.values.append(15) }
                    _ = loop.schedule(at: now + .milliseconds(20)) { record.values.append(20) }
                    _ = loop.schedule(at: now - .milliseconds(5)) { record.values.append(0) }
                    loop.cancelTimer(cancelled)
                }
            }
            #expect(order == [0, 10, 20, 30])
        }
    }

    @Test func aWatchedDescriptorIsReportedReadable() async throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        try await withServer(Self.oneThread, handler: { _ in .text(200, "") }) { server in
            let received = try await server.onNetworkThread { () -> UInt8 in
                guard let loop = IOEventLoops.current else { return 0 }
                return await withCheckedContinuation { continuation in
                    let watching = loop.watch(readEnd, for: .readable) { readiness in
                        guard readiness.contains(.readable) else { return }
                        var byte: UInt8 = 0
                        _ = read(readEnd, &byte, 1)
                        loop.unwatch(readEnd)
                        continuation.resume(returning: byte)
                    }
                    guard watching else { return continuation.resume(returning: 0) }
                    // Written from another thread, after the watch is in place.
                    Thread.detachNewThread {
                        var byte: UInt8 = 42
                        _ = write(writeEnd, &byte, 1)
                    }
                }
            }
            #expect(received == 42)
        }
    }

    @Test func handedOverWorkRunsOnTheLoopAndTheLastTurnEndsWhatIsLeft() async throws {
        let server = HTTPServer(configuration: Self.oneThread, handler: { _ in .text(200, "") })
        try server.start()
        let stopped = Atomic<Bool>(false)
        let loop = try await server.onNetworkThread { () -> (any IOEventLoop)? in
            IOEventLoops.current?.whenStopping { stopped.store(true, ordering: .relaxed) }
            return IOEventLoops.current
        }
        let handedOver = try #require(loop)
        let ranOnLoop = await withCheckedContinuation { continuation in
            let accepted = handedOver.execute { continuation.resume(returning: handedOver.isCurrent) }
            if !accepted { continuation.resume(returning: false) }
        }
        #expect(ranOnLoop)
        let stoppedBefore = stopped.load(ordering: .relaxed)
        #expect(!stoppedBefore)
        await server.shutdown(gracePeriod: .milliseconds(100))
        let stoppedAfter = stopped.load(ordering: .relaxed)
        #expect(stoppedAfter)
        #expect(!handedOver.execute {})
    }
}
