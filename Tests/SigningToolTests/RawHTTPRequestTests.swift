import HTTPTypes
import ServiceCore
import SigningTool
import Testing

struct RawHTTPRequestTests {
    @Test func crlfRequest() throws {
        let request = try RawHTTPRequest.parse(ToolFixtures.post)
        #expect(request.method == "POST")
        #expect(request.target == "/v1/payments?dry-run=1")
        #expect(request.version == "HTTP/1.1")
        #expect(request.headers["host"] == "api.example.com")
        #expect(request.body == Array("{\"amount\":1200,\"currency\":\"EUR\"}".utf8))
        #expect(request.lineEnding == .crlf)
        #expect(request.serialized() == ToolFixtures.post)
    }

    @Test func lfRequestWithFoldingAndLeadingBlankLines() throws {
        let text = "\n\r\nGET /x HTTP/1.0\nX-Folded: one\n  two\n\tthree\nX-Empty:\nX-Spaces:   padded   \n\n"
        let request = try RawHTTPRequest.parse(Array(text.utf8))
        #expect(request.lineEnding == .lf)
        #expect(request.headers["x-folded"] == "one two three")
        #expect(request.headers["x-empty"] == "")
        #expect(request.headers["x-spaces"] == "padded")
        #expect(request.body.isEmpty)
        #expect(
            request.serialized()
                == Array("GET /x HTTP/1.0\nX-Folded: one two three\nX-Empty: \nX-Spaces: padded\n\n".utf8))
    }

    @Test func aMissingFinalEmptyLineIsFineWithoutABody() throws {
        let request = try RawHTTPRequest.parse(Array("GET / HTTP/1.1\r\nHost: h".utf8))
        #expect(request.headers["Host"] == "h")
    }

    @Test(arguments: [
        "", "\r\n\r\n", "GET /\r\n\r\n", "GET  / HTTP/1.1\r\n\r\n", "G(T / HTTP/1.1\r\n\r\n", "GET / HTTP/2\r\n\r\n",
        "GET / HTTP/1.1\r\nHost : h\r\n\r\n", "GET / HTTP/1.1\r\nNo colon\r\n\r\n",
        "GET / HTTP/1.1\r\n folded first\r\n\r\n",
        "POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nabc", "POST / HTTP/1.1\r\nContent-Length: 2\r\n\r\nabc",
        "POST / HTTP/1.1\r\nContent-Length: x\r\n\r\n",
        "POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\na",
        "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
        "GET / HTTP/1.1\r\nX: a\u{1}b\r\n\r\n",
        "GET /a b HTTP/1.1\r\n\r\n",
    ])
    func malformedRequests(_ text: String) {
        #expect(throws: RawHTTPRequestError.self) { try RawHTTPRequest.parse(Array(text.utf8)) }
    }
}
