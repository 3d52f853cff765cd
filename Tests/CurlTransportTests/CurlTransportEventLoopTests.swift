import CurlTransport
import EventLoops
import Foundation
import HTTPServer
import HTTPTypes
import ServiceCore
import ServiceTesting
import Synchronization
import Testing

/// The transport called from one of the event loops it was built with: it runs its transfers on
/// that loop (`usesCallerEventLoop`), and behaves exactly as on its own thread.
struct CurlTransportEventLoopTests {
    @Test(arguments: TransportConformance.Check.allCases)
    func conformsOnTheCallersLoop(_ check: TransportConformance.Check) async throws {
        let transport = CurlTransport(eventLoops: EventLoopHost.loops)
        do {
            try await TransportConformance(transport: transport).runOnEventLoop(check)
        } catch {
            await transport.shutdown()
            throw error
        }
        await transport.shutdown()
    }

    @Test func runsOnTheLoopThatCalls() async throws {
        let transport = CurlTransport(eventLoops: EventLoopHost.loops)
        try await withLoopbackServer(handler: TransportConformance.handle) { upstream in
            do {
                let statuses = try await EventLoopHost.run {
                    var statuses: [Int] = []
                    for _ in 0..<3 {
                        statuses.append(
                            try await transport.send(HTTPRequest(method: .get, url: upstream.url("/status/200"))).status
                        )
                        // Back on the loop's thread after the upstream call.
                        #expect(EventLoopHost.loops.loopOfCaller != nil)
                    }
                    return statuses
                }
                #expect(statuses == [200, 200, 200])
                #expect(transport.eventLoopCount == 1)
            }
            // Off the loop, the transport's own thread answers.
            #expect(EventLoopHost.loops.loopOfCaller == nil)
            let response = try await transport.send(HTTPRequest(method: .get, url: upstream.url("/status/204")))
            #expect(response.status == 204)
        }
        await transport.shutdown()
        // The loop frees its multi handle on its own next turn: wait for it, boundedly.
        for _ in 0..<200 where transport.eventLoopCount != 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(transport.eventLoopCount == 0)
    }

    @Test func offWhenTheConfigurationSaysSo() async throws {
        let transport = CurlTransport(configuration: .init(usesCallerEventLoop: false), eventLoops: EventLoopHost.loops)
        try await withLoopbackServer(handler: TransportConformance.handle) { upstream in
            do {
                let status = try await EventLoopHost.run {
                    try await transport.send(HTTPRequest(method: .get, url: upstream.url("/status/200"))).status
                }
                #expect(status == 200)
                #expect(transport.eventLoopCount == 0)
            }
        }
        await transport.shutdown()
    }

    @Test func shutdownFailsWhatIsInFlightOnTheLoop() async throws {
        let transport = CurlTransport(eventLoops: EventLoopHost.loops)
        try await withLoopbackServer(handler: TransportConformance.handle) { upstream in
            do {
                async let outcome: Result<Int, TransportError> = EventLoopHost.run {
                    do {
                        let request = HTTPRequest(method: .get, url: upstream.url("/delay/5000"), timeout: .seconds(20))
                        return .success(try await transport.send(request).status)
                    } catch let error as TransportError {
                        return .failure(error)
                    }
                }
                // Bounded wait until the transfer is on the loop.
                for _ in 0..<200 where transport.eventLoopCount == 0 { try await Task.sleep(for: .milliseconds(10)) }
                let started = ContinuousClock.now
                await transport.shutdown(gracePeriod: .milliseconds(100))
                let result = try await outcome
                #expect(ContinuousClock.now - started < .seconds(4))
                guard case .failure(let error) = result else {
                    Issue.record("the slow request finished despite the shutdown: \(result)")
                    return
                }
                #expect(error.code == .shutDown)
                #expect(transport.eventLoopCount == 0)
                // After a shutdown every request fails at once, on the loop too.
                let late = try await EventLoopHost.run { () -> TransportError.Code? in
                    do {
                        _ = try await transport.send(HTTPRequest(method: .get, url: upstream.url("/status/200")))
                        return nil
                    } catch let error as TransportError {
                        return error.code
                    }
                }
                #expect(late == .shutDown)
            }
        }
    }

    @Test func aStoppingLoopFailsItsTransfers() async throws {
        let loops = try EventLoopGroup(loopCount: 1, name: "stopping")
        let transport = CurlTransport(eventLoops: loops)
        try await withLoopbackServer(handler: TransportConformance.handle) { upstream in
            let outcome = Task { () -> TransportError.Code? in
                do {
                    _ = try await EventLoopHost.run(on: loops.loops[0]) {
                        try await transport.send(
                            HTTPRequest(method: .get, url: upstream.url("/delay/5000"), timeout: .seconds(20)))
                    }
                    return nil
                } catch let error as TransportError {
                    return error.code
                }
            }
            for _ in 0..<200 where transport.eventLoopCount == 0 { try await Task.sleep(for: .milliseconds(10)) }
            #expect(transport.eventLoopCount == 1)
            let started = ContinuousClock.now
            await loops.shutdown()
            #expect(try await outcome.value == .shutDown)
            #expect(ContinuousClock.now - started < .seconds(4))
            #expect(transport.eventLoopCount == 0)
        }
        await transport.shutdown()
    }

    @Test func aLoopOfAnotherGroupIsNotTheCallersLoop() async throws {
        let transport = CurlTransport(eventLoops: EventLoopHost.loops)
        let other = try EventLoopGroup(loopCount: 1, name: "other")
        try await withLoopbackServer(handler: TransportConformance.handle) { upstream in
            let status = try await EventLoopHost.run(on: other.loops[0]) {
                try await transport.send(HTTPRequest(method: .get, url: upstream.url("/status/200"))).status
            }
            #expect(status == 200)
            // Sent from a loop the transport was not given: its own thread took it.
            #expect(transport.eventLoopCount == 0)
        }
        await transport.shutdown()
        await other.shutdown()
    }
}

/// The loop keeps an idle connection's socket in its epoll between transfers (parked), so these
/// check what can happen to a parked socket: its peer closes it, or libcurl closes it and the
/// number comes back for a new connection.
struct CurlTransportParkedSocketTests {
    @Test func idleConnectionsClosedByTheUpstreamAreReplaced() async throws {
        let transport = CurlTransport(eventLoops: EventLoopHost.loops)
        // The upstream closes a connection after a second without a request.
        let upstreamConfiguration = HTTPServer.Configuration(host: "127.0.0.1", port: 0, connectionTimeout: .seconds(1))
        try await withLoopbackServer(configuration: upstreamConfiguration, handler: TransportConformance.handle) {
            upstream in
            do {
                let url = upstream.url("/status/200")
                let rounds = try await EventLoopHost.run { () -> [[Int]] in
                    var rounds: [[Int]] = []
                    for round in 0..<3 {
                        if round > 0 { try await Task.sleep(for: .milliseconds(1600)) }
                        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                            for _ in 0..<8 {
                                group.addTask {
                                    try await transport.send(HTTPRequest(method: .get, url: url, timeout: .seconds(5)))
                                        .status
                                }
                            }
                            return try await group.reduce(into: []) { $0.append($1) }
                        }
                        rounds.append(statuses)
                    }
                    return rounds
                }
                #expect(rounds == Array(repeating: Array(repeating: 200, count: 8), count: 3))
            }
        }
        await transport.shutdown()
    }

    @Test func socketNumbersReusedByNewConnectionsAreWatchedAgain() async throws {
        let transport = CurlTransport(eventLoops: EventLoopHost.loops)
        // Every answer closes its connection, so each request opens a socket that often gets the
        // number of the one just closed.
        try await withLoopbackServer(handler: { _ in
            ServerResponse(status: 200, headers: ["Connection": "close"], body: Data("closing".utf8))
        }) { upstream in
            do {
                let url = upstream.url("/close")
                let statuses = try await EventLoopHost.run { () -> [Int] in
                    var statuses: [Int] = []
                    for _ in 0..<40 {
                        statuses.append(
                            try await transport.send(HTTPRequest(method: .get, url: url, timeout: .seconds(5))).status)
                    }
                    return statuses
                }
                #expect(statuses == Array(repeating: 200, count: 40))
            }
        }
        await transport.shutdown()
    }
}
