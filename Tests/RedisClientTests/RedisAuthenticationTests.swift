import Foundation
import RedisClient
import RedisTestSupport
import Testing

@Suite(.timeLimit(.minutes(1)))
struct RedisAuthenticationTests {
    static let password = "pa55-Word-for-tests"

    @Test func aPasswordAuthenticatesEveryConnection() async throws {
        try await RedisServer.with(arguments: ["--requirepass", Self.password]) { server throws in
            try await withClient(server, configure: { $0.credentials = RedisCredentials(password: Self.password) }) {
                client throws in
                #expect(try await client.send(["SET", "k", "v"]) == .simpleString("OK"))
                #expect(try await client.send(["ACL", "WHOAMI"]) == .bulk("default"))
            }
            try await withClient(server) { anonymous throws in
                let error = await redisError { try await anonymous.send(["GET", "k"]) }
                #expect(error?.code == .server)
                #expect(error?.serverErrorPrefix == "NOAUTH")
            }
        }
    }

    @Test func aWrongPasswordFailsClearlyWithoutShowingIt() async throws {
        let wrong = "wrong-Secret-4711"
        try await RedisServer.with(arguments: ["--requirepass", Self.password]) { server throws in
            try await withClient(server, configure: { $0.credentials = RedisCredentials(password: wrong) }) {
                client throws in
                let error = try #require(await redisError { try await client.send(["PING"]) })
                #expect(error.code == .authenticationFailed)
                #expect(error.message.contains("refused the credentials"))
                #expect(!error.description.contains(wrong))
                #expect(!String(reflecting: error).contains(wrong))
                #expect(!error.description.contains(Self.password))
            }
        }
    }

    @Test func anACLUserAuthenticatesWithAPasswordFromAFile() async throws {
        try await RedisServer.with { server throws in
            try await withClient(server) { admin throws in
                let created = try await admin.send(
                    ["ACL", "SETUSER", "swifty", "on", ">user-Secret-1", "~app:*", "+@all"])
                #expect(created == .simpleString("OK"))
            }
            let file = server.directory + "/redis.password"
            try Data("user-Secret-1\n".utf8).write(to: URL(fileURLWithPath: file))
            let credentials = try RedisCredentials(passwordFile: file, username: "swifty")
            #expect(!"\(credentials)".contains("user-Secret-1"))
            #expect(!String(reflecting: credentials).contains("user-Secret-1"))
            try await withClient(server, configure: { $0.credentials = credentials }) { client throws in
                #expect(try await client.send(["ACL", "WHOAMI"]) == .bulk("swifty"))
                #expect(try await client.send(["SET", "app:one", "1"]) == .simpleString("OK"))
                let denied = await redisError { try await client.send(["SET", "other", "1"]) }
                #expect(denied?.code == .server)
                #expect(denied?.serverErrorPrefix == "NOPERM")
            }
            let wrong = RedisCredentials(username: "swifty", password: "not-the-Secret")
            try await withClient(server, configure: { $0.credentials = wrong }) { client throws in
                let error = await redisError { try await client.send(["PING"]) }
                #expect(error?.code == .authenticationFailed)
                #expect(error?.serverErrorPrefix == "WRONGPASS")
                #expect(error?.description.contains("not-the-Secret") == false)
                #expect(error?.description.contains("user swifty") == true)
            }
        }
    }

    @Test func anUnreadablePasswordFileIsNamedInTheError() throws {
        let path = "/nonexistent/redis.password"
        #expect {
            _ = try RedisCredentials(passwordFile: path)
        } throws: { error in
            let redis = error as? RedisError
            return redis?.code == .invalidArgument && redis?.message.contains(path) == true
        }
    }
}
