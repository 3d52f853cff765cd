import Foundation

/// The corpus, after RFC 9112, RFC 9110 and the rules in the server's design: request line,
/// versions, field syntax, every `Content-Length` and `Transfer-Encoding` form, chunked bodies,
/// `Expect`, pipelining, early closes, and the limits (default configuration).
///
/// `.served` stands for the answer of the target's handler (the echo handler's 200 on the bare
/// server, the router's 404 on an unknown path of `swiftyd`, a sandbox upstream's 401 to an unsigned
/// request); every other status is the server's own, the same on every target.
public enum FramingCorpus {
    static let host = "Host: x\r\n"

    static func get(_ target: String = "/", version: String = "HTTP/1.1", fields: String = host) -> String {
        "GET \(target) \(version)\r\n\(fields)\r\n"
    }

    static func post(_ fields: String, _ body: String = "") -> String {
        "POST /p HTTP/1.1\r\n\(host)\(fields)\r\n\(body)"
    }

    /// The request line: methods, targets, versions.
    public static let requestLine: [FramingCase] = [
        FramingCase("plain GET", get(), [.served], .open),
        FramingCase("GET with a query", get("/a?b=c&d"), [.served], .open),
        FramingCase("percent-encoded target", get("/a%2Fb?x=%20"), [.served], .open),
        FramingCase("empty line before the request line", "\r\n" + get(), [.served], .open),
        FramingCase("HTTP/1.0 without Host", "GET / HTTP/1.0\r\n\r\n", [.served], .closed),
        FramingCase("HTTP/1.0 with keep-alive", "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", [.served], .open),
        FramingCase("HTTP/1.1 with Connection: close", get(fields: host + "Connection: close\r\n"), [.served], .closed),
        FramingCase("HTTP/2.0", get(version: "HTTP/2.0"), [505], .closed),
        FramingCase("HTTP/1.2", get(version: "HTTP/1.2"), [505], .closed),
        FramingCase("HTTP/3.0", get(version: "HTTP/3.0"), [505], .closed),
        FramingCase("HTTP/0.9 version", get(version: "HTTP/0.9"), [505], .closed),
        FramingCase("misspelt protocol", get(version: "HTTX/1.1"), [400], .closed),
        FramingCase("lowercase protocol", get(version: "http/1.1"), [400], .closed),
        FramingCase("version garbage", get(version: "HTTP/1.x"), [400], .closed),
        FramingCase("two spaces after the method", "GET  / HTTP/1.1\r\n\(host)\r\n", [400], .closed),
        FramingCase("space after the version", "GET / HTTP/1.1 \r\n\(host)\r\n", [400], .closed),
        FramingCase("tab as separator", "GET\t/ HTTP/1.1\r\n\(host)\r\n", [400], .closed),
        FramingCase("lowercase method", "get / HTTP/1.1\r\n\(host)\r\n", [501], .closed),
        FramingCase("unknown token method", "FOO / HTTP/1.1\r\n\(host)\r\n", [501], .closed),
        FramingCase("method not a token", "G(T / HTTP/1.1\r\n\(host)\r\n", [400], .closed),
        FramingCase("method missing", " / HTTP/1.1\r\n\(host)\r\n", [400], .closed),
        FramingCase("OPTIONS asterisk", "OPTIONS * HTTP/1.1\r\n\(host)\r\n", [.served], .open),
        FramingCase("GET asterisk", get("*"), [400], .closed),
        FramingCase("absolute-form", get("http://x/a"), [.served], .open),
        FramingCase("absolute-form without path", get("http://x"), [.served], .open),
        FramingCase("absolute-form https with query", get("https://x/a?b=1"), [.served], .open),
        FramingCase("absolute-form without authority", get("http:///a"), [400], .closed),
        FramingCase("absolute-form of another scheme", get("ftp://x/a"), [400], .closed),
        FramingCase("relative target", get("a/b"), [400], .closed),
        FramingCase("CONNECT authority-form", "CONNECT x:443 HTTP/1.1\r\n\(host)\r\n", [501], .closed),
        FramingCase("fragment in the target", get("/a#f"), [400], .closed),
        FramingCase("NUL in the target", get("/a\u{0}b"), [400], .closed),
        FramingCase("non-ASCII target", get("/caf\u{E9}"), [400], .closed),
        FramingCase("space inside the target", get("/a b"), [400], .closed),
        FramingCase("target over the limit", get("/" + String(repeating: "t", count: 9000)), [414], .closed),
        FramingCase("target near the limit", get("/" + String(repeating: "t", count: 8000)), [.served], .open),
        FramingCase(
            "too many query parameters", get("/q?" + (0...100).map { "p\($0)=1" }.joined(separator: "&")), [400],
            .closed),
        FramingCase(
            "query parameters at the limit", get("/q?" + (0..<100).map { "p\($0)=1" }.joined(separator: "&")),
            [.served], .open),
    ]

    /// Field syntax, `Host`, and the head limits.
    public static let fields: [FramingCase] = [
        FramingCase("HTTP/1.1 without Host", get(fields: "X-A: 1\r\n"), [400], .closed),
        FramingCase("two Host fields", get(fields: host + "Host: y\r\n"), [400], .closed),
        FramingCase("HTTP/1.0 with two Host fields", get(version: "HTTP/1.0", fields: host + host), [400], .closed),
        FramingCase("empty Host", get(fields: "Host:\r\n"), [.served], .open),
        FramingCase("space before the colon", get(fields: host + "X-A : 1\r\n"), [400], .closed),
        FramingCase("tab before the colon", get(fields: host + "X-A\t: 1\r\n"), [400], .closed),
        FramingCase("obs-fold", get(fields: host + "X-A: 1\r\n 2\r\n"), [400], .closed),
        FramingCase("whitespace before the first field", get(fields: " X-A: 1\r\n" + host), [400], .closed),
        FramingCase("bare LF line ends", "GET / HTTP/1.1\nHost: x\n\n", [400], .closed),
        FramingCase("bare LF after a field", get(fields: host + "X-A: 1\n"), [400], .closed),
        FramingCase("bare CR in a value", get(fields: host + "X-A: a\rb\r\n"), [400], .closed),
        FramingCase("NUL in a value", get(fields: host + "X-A: a\u{0}b\r\n"), [400], .closed),
        FramingCase("NUL in a name", get(fields: host + "X-\u{0}A: 1\r\n"), [400], .closed),
        FramingCase("control character in a value", get(fields: host + "X-A: a\u{1}b\r\n"), [400], .closed),
        FramingCase("DEL in a value", get(fields: host + "X-A: a\u{7F}b\r\n"), [400], .closed),
        FramingCase("name not a token", get(fields: host + "X(A): 1\r\n"), [400], .closed),
        FramingCase("empty name", get(fields: host + ": 1\r\n"), [400], .closed),
        FramingCase("field without colon", get(fields: host + "X-A\r\n"), [400], .closed),
        FramingCase("UTF-8 in a value", get(fields: host + "X-A: caf\u{E9}\r\n"), [.served], .open),
        FramingCase("tab inside a value", get(fields: host + "X-A: a\tb\r\n"), [.served], .open),
        FramingCase(
            "one field too many", get(fields: host + (0..<100).map { "X-F\($0): 1\r\n" }.joined()), [431], .closed),
        FramingCase(
            "fields at the limit", get(fields: host + (0..<99).map { "X-F\($0): 1\r\n" }.joined()), [.served], .open),
        FramingCase(
            "header bytes over the limit", get(fields: host + "X-Big: \(String(repeating: "v", count: 9000))\r\n"),
            [431], .closed),
        FramingCase(
            "a huge head", get(fields: host + "X-Huge: \(String(repeating: "h", count: 100_000))\r\n"), [431],
            .closed),
    ]

    /// Every `Content-Length` form, and `Content-Length` with `Transfer-Encoding`.
    public static let contentLength: [FramingCase] = [
        FramingCase("body with Content-Length", post("Content-Length: 5\r\n", "hello"), [.served], .open),
        FramingCase("Content-Length 0", post("Content-Length: 0\r\n"), [.served], .open),
        FramingCase("POST without a length", post(""), [.served], .open),
        FramingCase(
            "two equal Content-Length", post("Content-Length: 3\r\nContent-Length: 3\r\n", "abc"), [400], .closed),
        FramingCase("two Content-Length", post("Content-Length: 3\r\nContent-Length: 4\r\n", "abcd"), [400], .closed),
        FramingCase("list Content-Length", post("Content-Length: 3, 3\r\n", "abc"), [400], .closed),
        FramingCase("signed Content-Length", post("Content-Length: +3\r\n", "abc"), [400], .closed),
        FramingCase("negative Content-Length", post("Content-Length: -1\r\n"), [400], .closed),
        FramingCase("Content-Length with a space inside", post("Content-Length: 3 3\r\n", "abc"), [400], .closed),
        FramingCase("hex Content-Length", post("Content-Length: 0x10\r\n"), [400], .closed),
        FramingCase("exponent Content-Length", post("Content-Length: 1e3\r\n"), [400], .closed),
        FramingCase("empty Content-Length", post("Content-Length:\r\n"), [400], .closed),
        FramingCase("Content-Length past 2^63", post("Content-Length: 99999999999999999999\r\n"), [400], .closed),
        FramingCase(
            "Content-Length with surrounding spaces", post("Content-Length:  5 \r\n", "hello"), [.served], .open),
        FramingCase("Content-Length over the body limit", post("Content-Length: 1048577\r\n"), [413], .closed),
        FramingCase(
            "Content-Length then Transfer-Encoding",
            post("Content-Length: 3\r\nTransfer-Encoding: chunked\r\n", "3\r\nabc\r\n0\r\n\r\n"), [400], .closed),
        FramingCase(
            "Transfer-Encoding then Content-Length",
            post("Transfer-Encoding: chunked\r\nContent-Length: 3\r\n", "3\r\nabc\r\n0\r\n\r\n"), [400], .closed),
    ]

    /// Transfer codings and chunked bodies.
    public static let chunked: [FramingCase] = [
        FramingCase(
            "chunked body", post("Transfer-Encoding: chunked\r\n", "5\r\nhello\r\n0\r\n\r\n"), [.served], .open),
        FramingCase(
            "chunked in capitals", post("Transfer-Encoding: Chunked\r\n", "5\r\nhello\r\n0\r\n\r\n"), [.served], .open),
        FramingCase(
            "chunked with a trailing space", post("Transfer-Encoding: chunked \r\n", "5\r\nhello\r\n0\r\n\r\n"),
            [.served], .open),
        FramingCase("gzip coding", post("Transfer-Encoding: gzip\r\n"), [501], .closed),
        FramingCase("identity coding", post("Transfer-Encoding: identity\r\n"), [501], .closed),
        FramingCase("gzip then chunked", post("Transfer-Encoding: gzip, chunked\r\n", "0\r\n\r\n"), [501], .closed),
        FramingCase("chunked then gzip", post("Transfer-Encoding: chunked, gzip\r\n"), [501], .closed),
        FramingCase("chunked twice", post("Transfer-Encoding: chunked, chunked\r\n", "0\r\n\r\n"), [400], .closed),
        FramingCase(
            "two chunked fields", post("Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n", "0\r\n\r\n"),
            [400], .closed),
        FramingCase("chunked misspelt", post("Transfer-Encoding: xchunked\r\n"), [501], .closed),
        FramingCase(
            "Transfer-Encoding in HTTP/1.0", "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", [400],
            .closed),
        FramingCase(
            "chunk size not hex", post("Transfer-Encoding: chunked\r\n", "zz\r\nhello\r\n0\r\n\r\n"), [400], .closed),
        FramingCase(
            "chunk extension", post("Transfer-Encoding: chunked\r\n", "5;ext=1\r\nhello\r\n0\r\n\r\n"), [.served], .open
        ),
        FramingCase(
            "chunk size overflow", post("Transfer-Encoding: chunked\r\n", "fffffffffffffffff\r\nx\r\n0\r\n\r\n"), [400],
            .closed),
        FramingCase(
            "chunk data without CRLF", post("Transfer-Encoding: chunked\r\n", "5\r\nhelloXX0\r\n\r\n"), [400], .closed),
        FramingCase(
            "negative chunk size", post("Transfer-Encoding: chunked\r\n", "-1\r\nx\r\n0\r\n\r\n"), [400], .closed),
        FramingCase(
            "space before the chunk size", post("Transfer-Encoding: chunked\r\n", " 5\r\nhello\r\n0\r\n\r\n"), [400],
            .closed),
        FramingCase(
            "chunk line with a bare LF", post("Transfer-Encoding: chunked\r\n", "5\nhello\r\n0\r\n\r\n"), [400],
            .closed),
        FramingCase(
            "trailer fields", post("Transfer-Encoding: chunked\r\n", "5\r\nhello\r\n0\r\nX-T: 1\r\n\r\n"), [.served],
            .open),
        FramingCase(
            "chunked over the body limit",
            post(
                "Transfer-Encoding: chunked\r\n",
                "100001\r\n" + String(repeating: "z", count: 0x10_0001) + "\r\n0\r\n\r\n"),
            [413], .closed),
    ]

    /// `Expect`, pipelining, `HEAD`, upgrade and early closes.
    public static let connection: [FramingCase] = [
        FramingCase(
            "Expect 100-continue with the body", post("Content-Length: 5\r\nExpect: 100-continue\r\n", "hello"),
            [100, .served], .open),
        FramingCase(
            "Expect 100-continue refused by the length",
            post("Content-Length: 2000000\r\nExpect: 100-continue\r\n"), [413], .closed),
        FramingCase("unknown expectation", post("Content-Length: 0\r\nExpect: teapot\r\n"), [417], .closed),
        FramingCase("three pipelined GETs", get("/1") + get("/2") + get("/3"), [.served, .served, .served], .open),
        FramingCase("pipelined POST and GET", post("Content-Length: 2\r\n", "hi") + get(), [.served, .served], .open),
        FramingCase("good then bad pipelined", get() + get(version: "HTTP/9.9") + get(), [.served, 505], .closed),
        FramingCase("HEAD", "HEAD / HTTP/1.1\r\n\(host)\r\n", [.served], .open),
        FramingCase(
            "upgrade request answered then closed",
            get(fields: host + "Connection: Upgrade\r\nUpgrade: websocket\r\n") + get(), [.served], .closed),
        FramingCase("early close in the request line", "GET / HT", [], .closed, halfClose: true),
        FramingCase("early close in the head", "GET / HTTP/1.1\r\nHost: x\r\nX-A:", [], .closed, halfClose: true),
        FramingCase("early close in the body", post("Content-Length: 10\r\n", "abc"), [], .closed, halfClose: true),
        FramingCase(
            "early close in a chunk", post("Transfer-Encoding: chunked\r\n", "5\r\nhe"), [], .closed, halfClose: true),
    ]

    /// Every case.
    public static let all: [FramingCase] = requestLine + fields + contentLength + chunked + connection
}
