import Foundation
import HTTPTypes
import ServiceCore
import ServiceTesting
import Testing

@Suite(.timeLimit(.minutes(2))) struct RetryMiddlewareTests {
    @Test func serviceUnavailableTwiceThenSuccessTakesThreeAttemptsWithBoundedBackoff() async throws {
        let clock = VirtualClock()
        let mock = MockTransport().on(.operation("item"), .status(503), .status(503), .json(200, #"{"ok":true}"#))
        let stamp = SignatureStamp()
        let retry = RetryMiddleware(clock: clock, random: .system)
        let client = try shopClient(mock, [retry, stamp])

        let response = try await client.send(.item(id: "a"))

        #expect(response.status == 200)
        #expect(mock.requests.map { $0.headers["Attempt"] } == ["1", "2", "3"])
        #expect(mock.requests.map { $0.headers["Signature"] } == ["sig-1", "sig-2", "sig-3"])
        let sleeps = clock.sleeps
        #expect(sleeps.count == 2)
        #expect(sleeps[0] <= .milliseconds(100))
        #expect(sleeps[1] <= .milliseconds(200))
    }

    @Test func backoffIsFullJitterOfTheCappedExponential() async throws {
        let clock = VirtualClock()
        let mock = MockTransport.flaky(failures: 4)
        let settings = RetrySettings(maxAttempts: 5, baseDelay: .milliseconds(100), maxDelay: .milliseconds(300))
        let client = try shopClient(mock, [RetryMiddleware(settings: settings, clock: clock, random: .constant(0.5))])

        _ = try await client.send(.item(id: "a"))

        #expect(clock.sleeps == [.milliseconds(50), .milliseconds(100), .milliseconds(150), .milliseconds(150)])
    }

    @Test func retryAfterDeltaSecondsIsHonoured() async throws {
        let clock = VirtualClock()
        let mock = MockTransport().on(.any, .tooManyRequests(retryAfter: 2), .ok)
        let client = try shopClient(mock, [RetryMiddleware(clock: clock, random: .constant(0))])

        _ = try await client.send(.item(id: "a"))

        #expect(clock.sleeps == [.seconds(2)])
        #expect(mock.requests.count == 2)
    }

    @Test func retryAfterHTTPDateIsHonoured() async throws {
        let clock = VirtualClock()
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let date = formatter.string(from: clock.wallTime.addingTimeInterval(3))
        let mock = MockTransport().on(.any, .status(503, headers: ["Retry-After": date]), .ok)
        let client = try shopClient(mock, [RetryMiddleware(clock: clock, random: .constant(0))])

        _ = try await client.send(.item(id: "a"))

        #expect(clock.sleeps == [.seconds(3)])
    }

    @Test func retryAfterBeyondTheCapEndsTheRetries() async throws {
        let clock = VirtualClock()
        let mock = MockTransport().on(.any, .tooManyRequests(retryAfter: 3600), .ok)
        let client = try shopClient(mock, [RetryMiddleware(clock: clock)])

        await #expect(throws: ServiceError.self) { try await client.send(.item(id: "a")) }

        #expect(mock.requests.count == 1)
        #expect(clock.sleeps.isEmpty)
    }

    @Test func neverClassCasesAreNeverRetried() async throws {
        let mock = MockTransport.always(.status(503))
        let client = try shopClient(mock, [RetryMiddleware(clock: VirtualClock())])

        let code = await serviceErrorCode { _ = try await client.send(.notify(text: "hi")) }

        #expect(code == .unacceptableStatus)
        #expect(mock.requests.count == 1)
    }

    @Test func idempotencyKeyCasesRetryOnlyWithTheKeyAndKeepIt() async throws {
        let withKey = MockTransport().on(.any, .error(.connectionClosed), .status(502), .ok)
        let client = try shopClient(withKey, [RetryMiddleware(clock: VirtualClock()), SignatureStamp()])
        _ = try await client.send(.charge(amount: 5, idempotencyKey: "key-1"))
        #expect(withKey.requests.map { $0.headers["Idempotency-Key"] } == ["key-1", "key-1", "key-1"])

        let withoutKey = MockTransport.always(.status(503))
        let bare = try shopClient(withoutKey, [RetryMiddleware(clock: VirtualClock())])
        _ = await serviceErrorCode { _ = try await bare.send(.charge(amount: 5, idempotencyKey: nil)) }
        #expect(withoutKey.requests.count == 1)
    }

    @Test func connectionFailuresAreRetriedUpToTheMaximumAndCounted() async throws {
        let mock = MockTransport.failing(.connectionFailed)
        let client = try shopClient(mock, [RetryMiddleware(settings: .init(maxAttempts: 4), clock: VirtualClock())])

        do {
            _ = try await client.send(.item(id: "a"))
            Issue.record("expected a failure")
        } catch let error as ServiceError {
            #expect(error.code == .transport)
            #expect(error.attempts == 4)
        }
        #expect(mock.requests.count == 4)
    }

    @Test func otherStatusesAndCancellationAreNotRetried() async throws {
        let mock = MockTransport().on(.any, .status(500), .ok)
        let client = try shopClient(mock, [RetryMiddleware(clock: VirtualClock())])
        _ = await serviceErrorCode { _ = try await client.send(.item(id: "a")) }
        #expect(mock.requests.count == 1)

        let cancelled = MockTransport.failing(.cancelled)
        let other = try shopClient(cancelled, [RetryMiddleware(clock: VirtualClock())])
        let code = await serviceErrorCode { _ = try await other.send(.item(id: "a")) }
        #expect(code == .cancelled)
        #expect(cancelled.requests.count == 1)
    }

    @Test func retryAfterParsesBothForms() {
        let now = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT
        #expect(RetryAfter.parse("120", now: now) == .seconds(120))
        #expect(RetryAfter.parse("Wed, 21 Oct 2015 07:28:30 GMT", now: now) == .seconds(30))
        #expect(RetryAfter.parse("Wed, 21 Oct 2015 07:00:00 GMT", now: now) == .zero)
        #expect(RetryAfter.parse("soon", now: now) == nil)
        #expect(RetryAfter.parse("-5", now: now) == nil)
    }
}
