import Foundation
import HTTPFramingCorpus
import HTTPServer
import HTTPTypes
import Testing

struct RequestValidationTests {
    /// A malformed request head, named for the test report.
    struct BadHead: Sendable, CustomTestStringConvertible {
        var name: String
        var head: String
        /// Whether the answer must be a problem body.
        var answeredByServer = true
        var testDescription: String { name }
    }

    /// Heads that let two parsers disagree about where a request ends, or that break HTTP/1.1.
    static let badHeads: [BadHead] = [
        BadHead(
            name: "two content lengths",
            head: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd"),
        BadHead(
            name: "equal content lengths",
            head: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc"),
        BadHead(
            name: "content length with transfer encoding",
            head:
                "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
        ),
        BadHead(name: "NUL in a middle value", head: "GET / HTTP/1.1\r\nX-A: a\u{0}b\r\nHost: x\r\n\r\n"),
        BadHead(name: "NUL in the last value", head: "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\u{0}b\r\n\r\n"),
        BadHead(
            name: "NUL hiding a field",
            head: "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\u{0}\r\nContent-Length: 5\r\nX-B: 1\r\n\r\n"),
        BadHead(name: "NUL in the target", head: "GET /a\u{0}b HTTP/1.1\r\nHost: x\r\n\r\n"),
        BadHead(name: "bare CR in a value", head: "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n"),
        BadHead(name: "folded field line", head: "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n"),
        BadHead(name: "space before colon", head: "GET / HTTP/1.1\r\nHost: x\r\nX-A : a\r\n\r\n"),
        BadHead(name: "HTTP/1.1 without Host", head: "GET / HTTP/1.1\r\nX-A: 1\r\n\r\n"),
        BadHead(name: "two Host fields", head: "GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n"),
        BadHead(name: "non-ASCII target", head: "GET /caf\u{E9} HTTP/1.1\r\nHost: x\r\n\r\n"),
        BadHead(
            name: "non-numeric content length",
            head: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1a\r\n\r\n"
        ),
    ]

    @Test(arguments: badHeads)
    func badHeadIsRejectedWith400(_ bad: BadHead) async throws {
        let calls = CallCounter()
        try await withServer(handler: { request in
            calls.increment()
            return await echoHandler(request)
        }) { server in
            let port = server.port
            let head = bad.head
            let response = try await blocking { () -> RawConnection.Response? in
                let connection = try RawConnection(port: port)
                try connection.send(head)
                return try? connection.readResponse()
            }
            let answer = try #require(response, "no answer before the connection closed")
            #expect(answer.status == 400)
            #expect(answer.header("Connection")?.lowercased() == "close")
            if bad.answeredByServer {
                #expect(answer.header("Content-Type") == "application/problem+json")
                let problem = try JSONDecoder().decode(ProblemDetails.self, from: Data(answer.body))
                #expect(problem.status == 400)
                #expect(problem.title == "Bad Request")
                #expect(problem.detail?.isEmpty == false)
            }
        }
        #expect(calls.value == 0, "the handler must not run")
    }

    @Test func validHeadsWithUnusualSpacingAreServed() async throws {
        try await withServer(handler: echoHandler) { server in
            for head in [
                "GET /a HTTP/1.1\r\nHost:x\r\nX-A:\t  spaced  \r\nX-Empty:\r\n\r\n",
                "\r\nGET /a HTTP/1.1\r\nHost: x\r\n\r\n",
            ] {
                let response = try await exchange(port: server.port, head)
                #expect(response.status == 200, "\(head.debugDescription)")
            }
        }
    }

    /// http-parser marks a message as using Transfer-Encoding as soon as a field's name begins
    /// with `transfer-encoding`; only the field of exactly that name frames a request.
    @Test(arguments: [
        ("GET /a HTTP/1.1\r\nHost: x\r\nTransfer-Encodingx: y\r\n\r\n", ""),
        ("POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding-Note: y\r\nContent-Length: 3\r\n\r\nabc", "abc"),
        ("POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTRANSFER-ENCODINGS:\r\n\r\nabc", "abc"),
        (
            "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding-Note: y\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
            "abc"
        ),
    ])
    func fieldsNamedLikeTransferEncodingDoNotFrame(_ head: String, _ body: String) async throws {
        try await withServer(handler: echoHandler) { server in
            let response = try await exchange(port: server.port, head)
            #expect(response.status == 200)
            let echo = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
            #expect(echo?["body"] as? String == body)
        }
    }

    @Test func http10WithoutHostIsServed() async throws {
        try await withServer(handler: echoHandler) { server in
            let response = try await exchange(port: server.port, "GET /old HTTP/1.0\r\n\r\n")
            #expect(response.status == 200)
        }
    }
}

/// Counts calls from any thread.
final class CallCounter: @unchecked Sendable {
    // Safe: every access holds `lock`.
    private let lock = NSLock()
    private var count = 0

    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
