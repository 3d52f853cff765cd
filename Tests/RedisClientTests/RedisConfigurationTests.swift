import RedisClient
import Testing

struct RedisConfigurationTests {
    @Test(arguments: [
        ("redis://127.0.0.1", RedisConfiguration.Endpoint.tcp(host: "127.0.0.1", port: 6379), 0),
        ("redis://redis.internal:6380/2", .tcp(host: "redis.internal", port: 6380), 2),
        ("redis://[::1]:7000/15", .tcp(host: "::1", port: 7000), 15),
        ("unix:///run/redis/redis.sock", .unixSocket(path: "/run/redis/redis.sock"), 0),
        ("unix:///tmp/r.sock?db=3", .unixSocket(path: "/tmp/r.sock"), 3),
    ])
    func aURLGivesTheEndpointAndDatabase(url: String, endpoint: RedisConfiguration.Endpoint, database: Int) throws {
        let configuration = try RedisConfiguration(url: url)
        #expect(configuration.endpoint == endpoint)
        #expect(configuration.database == database)
        #expect(configuration.credentials == nil)
    }

    @Test(arguments: [
        ("redis://user:url-Secret@127.0.0.1:6379", "holds credentials"),
        ("redis://:url-Secret@127.0.0.1", "holds credentials"),
        ("rediss://127.0.0.1", "TLS is not supported"),
        ("redis://127.0.0.1/db-two", "not a database number"),
        ("redis://127.0.0.1:0", "out of range"),
        ("unix://", "needs a socket path"),
        ("127.0.0.1:6379", "is not"),
    ])
    func aBadURLIsRefusedWithoutRepeatingIt(url: String, reason: String) {
        #expect {
            _ = try RedisConfiguration(url: url)
        } throws: { error in
            guard let redis = error as? RedisError else { return false }
            return redis.code == .invalidArgument && redis.message.contains(reason)
                && !redis.description.contains("url-Secret")
        }
    }
}
