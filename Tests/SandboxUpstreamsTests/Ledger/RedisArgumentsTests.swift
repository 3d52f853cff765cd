import RedisClient
import Testing

@testable import SandboxUpstreams

/// `--redis URL` and `--redis-password-file FILE`.
struct RedisArgumentsTests {
    @Test func readsTheURLAndTheUser() throws {
        let parsed = try SandboxArguments.parse([
            "--keys", "/k", "--redis", "redis://swifty@127.0.0.1:6390/2", "--redis-password-file", "/p",
        ])
        #expect(parsed.redisURL == "redis://swifty@127.0.0.1:6390/2")
        #expect(parsed.redisPasswordFile == "/p")
        let endpoint = try SandboxArguments.redisEndpoint("redis://swifty@127.0.0.1:6390/2")
        #expect(endpoint.username == "swifty")
        #expect(endpoint.configuration.endpoint == .tcp(host: "127.0.0.1", port: 6390))
        #expect(endpoint.configuration.database == 2)
        let socket = try SandboxArguments.redisEndpoint("unix:///run/redis/redis.sock?db=4")
        #expect(socket.username == nil)
        #expect(socket.configuration.endpoint == .unixSocket(path: "/run/redis/redis.sock"))
        #expect(socket.configuration.database == 4)
        #expect(try SandboxArguments.parse(["--keys", "/k"]).redisURL == nil)
        #expect(SandboxArguments.helpText.contains("--redis URL"))
        #expect(SandboxArguments.helpText.contains("--redis-password-file FILE"))
    }

    @Test(arguments: [
        ["--redis", "redis://u:hunter2@127.0.0.1"], ["--redis", "http://127.0.0.1"], ["--redis", "rediss://h"],
        ["--redis", "redis://127.0.0.1/x"], ["--redis", "redis://127.0.0.1:70000"], ["--redis"],
        ["--redis-password-file", "/p"], ["--redis", "redis://swifty@127.0.0.1"], ["--redis", "redis:///0"],
        ["--redis", "redis://127.0.0.1", "--redis-password-file", ""],
    ])
    func refusesBadRedisOptions(_ options: [String]) {
        #expect {
            try SandboxArguments.parse(["--keys", "/k"] + options)
        } throws: { error in
            // The message names the option and never repeats a password.
            let message = (error as? SandboxUsageError)?.message ?? ""
            return message.contains("--redis") && !message.contains("hunter2")
        }
    }
}
