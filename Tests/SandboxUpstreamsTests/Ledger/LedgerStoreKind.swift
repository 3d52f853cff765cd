import EventLoops
import Foundation
import RedisClient
import RedisTestSupport
import SandboxUpstreams

/// Where a test keeps the payment ledger: the same cases run against both.
enum LedgerStoreKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case memory
    case redis

    var description: String { rawValue }
}

/// A client configuration for a test's Redis: a short reconnect backoff, so a restarted server
/// is found again quickly.
func testRedisConfiguration(_ server: RedisServer) -> RedisConfiguration {
    var configuration = RedisConfiguration(endpoint: server.endpoint)
    configuration.reconnectBackoff = .init(initial: .milliseconds(20), maximum: .milliseconds(200))
    return configuration
}

/// Runs `body` with a sandbox configuration for the store: in memory, or on a redis-server of
/// the test's own (stopped afterwards) under a key prefix of its own.
func withLedgerStore<T>(
    _ kind: LedgerStoreKind,
    _ body: (SandboxUpstreams.Configuration, RedisServer?) async throws -> T
) async throws -> T {
    var configuration = SandboxFixture.quietConfiguration()
    guard kind == .redis else { return try await body(configuration, nil) }
    let server = try await RedisServer.start()
    configuration.redis = testRedisConfiguration(server)
    configuration.redisKeyPrefix = "test-\(UUID().uuidString.prefix(8)):"
    do {
        let result = try await body(configuration, server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}
