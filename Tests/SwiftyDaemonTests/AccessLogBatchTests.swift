import HTTPServer
import ServiceTesting
import Synchronization
import Testing

@testable import SwiftyDaemon

/// Access lines written on an event loop share one write per loop turn; elsewhere each is
/// written at once.
struct AccessLogBatchTests {
    /// What a batch handed to its sink, one element per call.
    final class Sink: Sendable {
        let calls = Mutex<[[UInt8]]>([])

        func record(_ bytes: UnsafeRawBufferPointer) {
            calls.withLock { $0.append(Array(bytes)) }
        }

        var count: Int { calls.withLock { $0.count } }

        /// Waits (at most 5 s) until the sink has had at least `count` calls; returns them.
        func waitForCalls(_ count: Int) async throws -> [[UInt8]] {
            let clock = ContinuousClock()
            let deadline = clock.now + .seconds(5)
            while self.count < count && clock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            return calls.withLock { $0 }
        }
    }

    static func line(_ number: Int) -> [UInt8] { Array("{\"n\":\(number)}\n".utf8) }

    /// Runs `body` on the network thread of a one-thread server, as a request handler runs.
    static func onLoop<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        let configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0, threadCount: 1)
        return try await withLoopbackServer(configuration: configuration, handler: { _ in .text(404, "") }) { host in
            try await host.server.onNetworkThread { try await body() }
        }
    }

    @Test func linesOfOneLoopTurnShareOneWriteInOrder() async throws {
        let sink = Sink()
        let batch = AccessLogBatch(sink: sink.record)
        let callsWhileWriting = try await Self.onLoop {
            for number in 0..<5 { batch.write(Self.line(number)) }
            return sink.count
        }
        #expect(callsWhileWriting == 0, "lines were written before the loop's turn ended")
        let calls = try await sink.waitForCalls(1)
        #expect(calls == [(0..<5).flatMap(Self.line)])
    }

    @Test func linesOffALoopAreWrittenAtOnce() {
        let sink = Sink()
        let batch = AccessLogBatch(sink: sink.record)
        batch.write(Self.line(1))
        #expect(sink.count == 1)
        batch.write(Self.line(2))
        #expect(sink.calls.withLock { $0 } == [Self.line(1), Self.line(2)])
    }

    @Test func aFullBatchIsWrittenWithoutWaitingForTheTurn() async throws {
        let sink = Sink()
        let batch = AccessLogBatch(sink: sink.record)
        let long = Array(repeating: UInt8(ascii: "x"), count: 1000) + [UInt8(ascii: "\n")]
        let lineCount = AccessLogBatch.flushThreshold / long.count + 1
        let callsWhileWriting = try await Self.onLoop {
            for _ in 0..<lineCount { batch.write(long) }
            batch.write(Self.line(0))
            return sink.count
        }
        #expect(callsWhileWriting == 1, "the batch past its threshold was not written at once")
        let calls = try await sink.waitForCalls(2)
        #expect(calls.count == 2)
        #expect(calls.first == Array((0..<lineCount).map { _ in long }.joined()))
        #expect(calls.last == Self.line(0))
    }
}
