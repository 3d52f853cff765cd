import Foundation
import HTTPTypes
import RequestSigning
import ServiceCore
import Testing

struct SignableMessageTests {
    @Test(
        arguments: [
            ("https://Example.COM/a%2Fb?x=1%202&y", "https", "example.com", "/a%2Fb", "x=1%202&y"),
            ("https://example.com:443/", "https", "example.com", "/", nil),
            ("http://example.com:80", "http", "example.com", "/", nil),
            ("http://example.com:8080/p?", "http", "example.com:8080", "/p", ""),
            ("https://user:pw@example.com:8443/p#frag", "https", "example.com:8443", "/p", nil),
            ("https://[::1]:443/v1", "https", "[::1]", "/v1", nil),
            ("https://[2001:db8::1]/v1?q", "https", "[2001:db8::1]", "/v1", "q"),
        ] as [(String, String, String, String, String?)])
    func fromServiceCoreRequests(url: String, scheme: String, authority: String, path: String, query: String?) throws {
        let message = try SignableMessage(HTTPRequest(method: .get, url: try #require(URL(string: url))))
        #expect(message.scheme == scheme)
        #expect(message.normalizedAuthority == authority)
        #expect((message.path.isEmpty ? "/" : message.path) == path)
        #expect(message.query == query)
    }

    @Test func fromAReceivedRequestTarget() throws {
        let headers = HTTPHeaders([("Host", " API.example.com:443 "), ("X", "1")])
        let origin = try SignableMessage(method: "GET", requestTarget: "/v1/x%2Fy?a=1&b=2", headers: headers)
        #expect(origin.path == "/v1/x%2Fy")
        #expect(origin.query == "a=1&b=2")
        #expect(origin.normalizedAuthority == "api.example.com")
        #expect(origin.requestTarget == "/v1/x%2Fy?a=1&b=2")
        let absolute = try SignableMessage(
            method: "GET", requestTarget: "http://other.example:80/p?q", headers: headers)
        #expect(absolute.scheme == "http")
        #expect(absolute.normalizedAuthority == "other.example")
        #expect(absolute.path == "/p")
        #expect(throws: SigningError.self) {
            try SignableMessage(method: "GET", requestTarget: "no-slash", headers: headers)
        }
        #expect(throws: SigningError.self) { try SignableMessage(method: "GET", requestTarget: "", headers: headers) }
    }

    @Test(
        arguments: [
            ("/p", "/p", nil),
            ("/p?", "/p", ""),
            ("/p?a=1?b=2", "/p", "a=1?b=2"),
            ("/caf\u{E9}/\u{1F600}?q=\u{E9}", "/caf\u{E9}/\u{1F600}", "q=\u{E9}"),
            ("/e\u{301}?x", "/e\u{301}", "x"),
            ("/p?\u{301}x", "/p", "\u{301}x"),
        ] as [(String, String, String?)])
    func theTargetSplitsAtItsFirstQuestionMark(target: String, path: String, query: String?) throws {
        let message = try SignableMessage(method: "GET", requestTarget: target, headers: ["Host": "h"])
        #expect(message.path == path)
        #expect(message.query == query)
        #expect(message.requestTarget == target)
    }

    @Test func aMissingHostIsAMissingAuthority() throws {
        let message = try SignableMessage(method: "GET", requestTarget: "/", headers: HTTPHeaders())
        let input = SignatureInput(label: "s", components: [.authority], parameters: SignatureParameters())
        #expect {
            try SignatureBase(message: message, input: input)
        } throws: { ($0 as? SigningError)?.code == .missingComponent }
    }

    @Test func queryParameters() throws {
        let message = try SignableMessage(
            method: "GET", requestTarget: "/p?a=1&b=x+y&a=2&c=%7E&e", headers: ["Host": "h"])
        func value(_ name: String) throws -> String {
            let input = SignatureInput(
                label: "s", components: [.queryParameter(name)], parameters: SignatureParameters())
            return String(try SignatureBase(message: message, input: input).text.split(separator: "\n")[0])
        }
        #expect(try value("b") == "\"@query-param\";name=\"b\": x%20y")
        #expect(try value("c") == "\"@query-param\";name=\"c\": %7E")
        #expect(try value("e") == "\"@query-param\";name=\"e\": ")
        #expect(throws: SigningError.self) { try value("a") }  // repeated: not coverable alone
        #expect(throws: SigningError.self) { try value("zzz") }  // absent
    }

    @Test func fieldValuesCannotForgeBaseLines() throws {
        var message = try SignableMessage(method: "GET", requestTarget: "/", headers: ["Host": "h"])
        message.headers.add(name: "X-Evil", value: "a\n\"@method\": POST")
        let input = SignatureInput(label: "s", components: [try .field("x-evil")], parameters: SignatureParameters())
        #expect(throws: SigningError.self) { try SignatureBase(message: message, input: input) }
        message.path = "/a\nb"
        let pathInput = SignatureInput(label: "s", components: [.path], parameters: SignatureParameters())
        #expect(throws: SigningError.self) { try SignatureBase(message: message, input: pathInput) }
    }

    @Test func componentIdentifiers() throws {
        #expect(try ComponentIdentifier(parsing: "@method") == .method)
        #expect(try ComponentIdentifier(parsing: "Content-Digest") == .contentDigest)
        #expect(try ComponentIdentifier(parsing: "example-dict;key=\"a\"").description == "\"example-dict\";key=\"a\"")
        #expect(ComponentIdentifier.queryParameter("a b").description == "\"@query-param\";name=\"a%20b\"")
        for bad in ["@nope", "\"@query-param\"", "a b", "x;sf;bs", "@method;sf", "x;unknown", ""] {
            #expect(throws: SigningError.self, "\(bad)") { try ComponentIdentifier(parsing: bad) }
        }
    }

    @Test func responsesAndRelatedRequests() throws {
        let request = try SignableMessage(method: "POST", requestTarget: "/x", headers: ["Host": "h"])
        let response = SignableMessage(status: 201, headers: ["Content-Type": "text/plain"], request: request)
        let input = SignatureInput(
            label: "s", components: [.status, try ComponentIdentifier(parsing: "\"@method\";req")],
            parameters: SignatureParameters())
        #expect(
            try SignatureBase(message: response, input: input).text.hasPrefix(
                "\"@status\": 201\n\"@method\";req: POST\n"))
        let methodOnResponse = SignatureInput(label: "s", components: [.method], parameters: SignatureParameters())
        #expect(throws: SigningError.self) { try SignatureBase(message: response, input: methodOnResponse) }
        let statusOnRequest = SignatureInput(label: "s", components: [.status], parameters: SignatureParameters())
        #expect(throws: SigningError.self) { try SignatureBase(message: request, input: statusOnRequest) }
    }
}
