import Foundation
import HTTPTypes
import ServiceCore
import ServiceTesting
import Synchronization
import Testing

/// Issues `token-1`, `token-2`, ... counting fetches; fetches from `failFrom` on fail; each fetch
/// first sleeps `delay` on the clock.
final class CountingSource: CredentialSource {
    private let fetches = Atomic<Int>(0)
    let lifetime: Duration?
    let failFrom: Int
    let delay: Duration
    let clock: VirtualClock

    init(lifetime: Duration? = .seconds(3600), failFrom: Int = .max, delay: Duration = .zero, clock: VirtualClock) {
        self.lifetime = lifetime
        self.failFrom = failFrom
        self.delay = delay
        self.clock = clock
    }

    var count: Int { fetches.load(ordering: .relaxed) }

    func fetchCredential() async throws -> BearerCredential {
        let number = fetches.wrappingAdd(1, ordering: .relaxed).newValue
        if delay > .zero { try await clock.sleep(for: delay) }
        guard number < failFrom else { throw ClientCredentialsSource.Failure(message: "token endpoint down") }
        return BearerCredential(token: "token-\(number)", lifetime: lifetime)
    }
}

@Suite(.timeLimit(.minutes(2))) struct CredentialRefreshTests {
    /// Accepts only `token`; answers 401 to any other.
    private func upstream(accepting token: String) -> MockTransport {
        MockTransport.always(
            .respond { request in
                HTTPResponse(status: request.headers["Authorization"] == "Bearer \(token)" ? 200 : 401)
            })
    }

    @Test func theCredentialIsFetchedOnceAndShared() async throws {
        let clock = VirtualClock()
        let source = CountingSource(clock: clock)
        let mock = upstream(accepting: "token-1")
        let client = try shopClient(mock, [CredentialRefreshMiddleware(source: source, clock: clock)])

        for index in 0..<5 { _ = try await client.send(.item(id: "\(index)")) }

        #expect(source.count == 1)
        #expect(mock.requests.allSatisfy { $0.headers["Authorization"] == "Bearer token-1" })
    }

    @Test func theCredentialIsRenewedBeforeItExpires() async throws {
        let clock = VirtualClock(mode: .manual)
        let source = CountingSource(lifetime: .seconds(60), clock: clock)
        let mock = MockTransport.alwaysOK()
        let client = try shopClient(
            mock, [CredentialRefreshMiddleware(source: source, renewBefore: .seconds(30), clock: clock)])

        _ = try await client.send(.item(id: "a"))
        clock.advance(by: .seconds(29))
        _ = try await client.send(.item(id: "a"))
        #expect(source.count == 1)
        clock.advance(by: .seconds(2))
        _ = try await client.send(.item(id: "a"))

        #expect(source.count == 2)
        #expect(mock.requests.last?.headers["Authorization"] == "Bearer token-2")
    }

    @Test func manyConcurrent401sRenewOnceAndReplayOnce() async throws {
        let clock = VirtualClock()
        let source = CountingSource(clock: clock)
        let mock = upstream(accepting: "token-2")
        let client = try shopClient(mock, [CredentialRefreshMiddleware(source: source, clock: clock)])
        _ = await serviceErrorCode { _ = try await client.send(.item(id: "warm")) }  // fetches token-1, renews once
        #expect(source.count == 2)

        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<50 { group.addTask { try await client.send(.item(id: "\(index)")).status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }

        #expect(statuses == Array(repeating: 200, count: 50))
        #expect(source.count == 2)
    }

    @Test func concurrentCallersWaitForOneRenewal() async throws {
        let clock = VirtualClock(mode: .manual)
        let source = CountingSource(delay: .seconds(1), clock: clock)
        let mock = upstream(accepting: "token-1")
        let client = try shopClient(mock, [CredentialRefreshMiddleware(source: source, clock: clock)])

        let tasks = (0..<20).map { index in Task { try await client.send(.item(id: "\(index)")).status } }
        #expect(await eventually { clock.sleeperCount == 1 })
        clock.advance(by: .seconds(1))

        for task in tasks { #expect(try await task.value == 200) }
        #expect(source.count == 1)
    }

    @Test func aFailedRenewalFailsTheWaitingCallsAndDoesNotLoop() async throws {
        let clock = VirtualClock(mode: .manual)
        let source = CountingSource(failFrom: 2, delay: .seconds(1), clock: clock)
        let mock = MockTransport.always(.status(401))
        let client = try shopClient(mock, [CredentialRefreshMiddleware(source: source, clock: clock)])
        let first = Task { await serviceErrorCode { _ = try await client.send(.item(id: "0")) } }
        #expect(await eventually { clock.sleeperCount == 1 })
        clock.advance(by: .seconds(1))  // token-1 issued; the upstream rejects it; renewal starts
        #expect(await eventually { clock.sleeperCount == 1 && source.count == 2 })

        let more = (1..<20).map { index in
            Task { await serviceErrorCode { _ = try await client.send(.item(id: "\(index)")) } }
        }
        #expect(await eventually { mock.requests.count == 20 })
        clock.advance(by: .seconds(1))  // the renewal fails

        #expect(await first.value == .credentialRefreshFailed)
        for task in more { #expect(await task.value == .credentialRefreshFailed) }
        #expect(source.count == 2)
        #expect(mock.requests.count == 20)
    }

    @Test func clientCredentialsGrantFollowsRFC6749() async throws {
        let endpoint = MockTransport.always(
            .respond { request in
                let body = String(decoding: request.body ?? Data(), as: UTF8.self)
                let basic = Data("app%3A1:s%20cret".utf8).base64EncodedString()
                guard request.method == .post, body == "grant_type=client_credentials&scope=read%20write",
                    request.headers["Authorization"] == "Basic \(basic)",
                    request.headers["Content-Type"] == "application/x-www-form-urlencoded"
                else { return HTTPResponse(status: 400) }
                return HTTPResponse(
                    status: 200, body: Data(#"{"access_token":"abc","token_type":"Bearer","expires_in":120}"#.utf8))
            })
        let source = ClientCredentialsSource(
            tokenURL: URL(string: "https://auth.test/token")!, clientID: "app:1", clientSecret: "s cret",
            scope: "read write", transport: endpoint)

        let credential = try await source.fetchCredential()

        #expect(credential == BearerCredential(token: "abc", lifetime: .seconds(120)))
        let failing = ClientCredentialsSource(
            tokenURL: URL(string: "https://auth.test/token")!, clientID: "x", clientSecret: "y",
            transport: MockTransport.always(.status(401)))
        await #expect(throws: ClientCredentialsSource.Failure.self) { try await failing.fetchCredential() }
    }
}
