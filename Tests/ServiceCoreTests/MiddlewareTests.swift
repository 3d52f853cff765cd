import AppLogging
import Foundation
import HTTPTypes
import ServiceCore
import Testing

struct MiddlewareTests {
    @Test func loggingRedactsSensitiveAndConfiguredHeaders() async throws {
        let memory = InMemoryLogHandler()
        let logger = Logger(label: "test", handler: memory, logLevel: .trace)
        struct Secretive: Service {
            var path: RequestPath { "/v1/me" }
            var method: HTTPMethod { .get }
            var task: RequestTask { .query(["access_token": "qsecret"]) }
            var headers: HTTPHeaders {
                [
                    "Authorization": "Bearer tsecret", "Cookie": "c=csecret", "X-Api-Key": "ksecret",
                    "Signature": "sig1=:ssecret:", "Signature-Input": "sig1=();nonce=\"nsecret\"",
                ]
            }
        }
        let transport = ClosureTransport { _ in
            HTTPResponse(status: 200, headers: ["Set-Cookie": "s=setsecret"])
        }
        let client = try ServiceClient<Secretive>(
            baseURL: "https://h.example",
            transport: transport,
            middlewares: [LoggingMiddleware(logger: logger, redactedHeaders: ["x-api-key"])]
        )
        _ = try await client.send(Secretive())
        let lines = memory.renderedLines.joined(separator: "\n")
        #expect(memory.records.count == 2)
        for secret in ["tsecret", "csecret", "ksecret", "ssecret", "nsecret", "qsecret", "setsecret"] {
            #expect(!lines.contains(secret), "\(secret) leaked into the log")
        }
        #expect(lines.contains("[REDACTED]"))
        #expect(lines.contains("GET https://h.example/v1/me -> 200"))
        #expect(memory.records.last?.metadata["module"] == "Secretive")
    }

    @Test func requestIDHeaderIsTheSameOnEveryAttempt() async throws {
        struct Twice: Middleware {
            func intercept(
                _ request: HTTPRequest,
                context: MiddlewareContext,
                next: @Sendable (HTTPRequest, MiddlewareContext) async throws -> HTTPResponse
            ) async throws -> HTTPResponse {
                _ = try await next(request, context)
                var context = context
                context.attempt = 2
                return try await next(request, context)
            }
        }
        let transport = ClosureTransport.json(200, "{}")
        let client = try ServiceClient<DemoService>(
            baseURL: "https://h.example",
            transport: transport,
            middlewares: [Twice(), RequestIDMiddleware()],
            configuration: ServiceClientConfiguration(requestIDGenerator: { "abc123" })
        )
        _ = try await client.send(.profile(id: "x"))
        #expect(transport.requests.map { $0.headers["x-request-id"] } == ["abc123", "abc123"])
    }

    @Test func randomRequestIDsAreSixteenHexDigits() {
        let ids = (0..<50).map { _ in RequestID.random() }
        #expect(Set(ids).count == 50)
        #expect(ids.allSatisfy { $0.utf8.count == 16 && $0.allSatisfy { "0123456789abcdef".contains($0) } })
    }
}
