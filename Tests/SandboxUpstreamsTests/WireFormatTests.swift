import Foundation
import HTTPServer
import HTTPTypes
import ServiceCore
import Testing

@testable import SandboxUpstreams

/// The sandbox's own readers: JSON bodies through the engine, multipart, queries, media types,
/// cursors.
struct WireFormatTests {
    /// The `code` member of a problem document.
    struct ProblemCodeOnly: Decodable {
        var code: String
    }

    /// A JSON request with `body`.
    private static func jsonRequest(_ body: Data) -> ServerRequest {
        ServerRequest(method: "POST", target: "/", headers: ["Content-Type": "application/json"], body: body)
    }

    private static func canonical(_ text: String) -> String? {
        RequestBody.canonicalJSON(jsonRequest(Data(text.utf8))).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test(arguments: [
        (#"{"a":1,"b":[true,false,null],"c":"x\u00e9\ud83d\ude00\n"}"#, true),
        (#"  [ 1 , -0.5e3 , 0 ]  "#, true),
        (#"{"a":1,}"#, false),
        (#"{"a":1,"a":2}"#, false),
        (#"[01]"#, false),
        (#"[1.]"#, false),
        (#""\ud800""#, false),
        ("\"tab\tinside\"", false),
        (#"{"a":1} x"#, false),
        (#"nul"#, false),
        (#""#, false),
        ("\u{FEFF}{}", false),
    ])
    func bodiesAreReadAsStrictJSONOnly(_ text: String, _ valid: Bool) {
        #expect((Self.canonical(text) != nil) == valid, "\(text)")
    }

    @Test func canonicalFormKeepsNumbersAndLimitsDepth() throws {
        #expect(Self.canonical(#"{"n":1250,"f":1.5e2,"s":"\"q\""}"#) == #"{"f":1.5e2,"n":1250,"s":"\"q\""}"#)
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(Self.canonical(deep) == nil)
        #expect(RequestBody.canonicalJSON(Self.jsonRequest(Data([0x22, 0xFF, 0x22]))) == nil)
    }

    @Test func canonicalBytesIgnoreOrderAndSpace() throws {
        let first = Self.canonical(#"{"b":{"y":2,"x":1},"a":"\u0041"}"#)
        let second = Self.canonical(#" { "a" : "A" , "b" : { "x" : 1 , "y" : 2 } } "#)
        #expect(first != nil && first == second)
        #expect(first == #"{"a":"A","b":{"x":1,"y":2}}"#)
        let third = Self.canonical(#"{"a":"A","b":{"x":1,"y":3}}"#)
        #expect(third != first)
    }

    @Test func bodiesCheckIntegers() throws {
        func refund(_ text: String) throws(Problem) -> Int64 {
            let body = try RequestBody.json(Self.jsonRequest(Data(text.utf8)), as: RequestWire.Refund.self)
            return try InputRules.amountMinor(body.amountMinor, named: "amountMinor")
        }
        #expect(try refund(#"{"amountMinor":5,"extra":[1]}"#) == 5)
        for text in [
            #"{"amountMinor":5.0}"#, #"{"amountMinor":5e0}"#, #"{"amountMinor":"5"}"#, #"{"amountMinor":-1}"#,
            #"{"amountMinor":9007199254740992}"#, #"{"amountMinor":99999999999999999999}"#, #"{}"#, #"[]"#,
            #"{"amountMinor":5,"amountMinor":6}"#,
        ] {
            #expect(throws: Problem.self, "\(text)") { try refund(text) }
            do {
                _ = try refund(text)
            } catch {
                #expect(error.code.name == "invalid_request", "\(text)")
                #expect(text == "[]" || error.detail.contains("amountMinor") || error.detail.contains("not valid JSON"))
            }
        }
    }

    @Test func multipartSplitsParts() throws {
        let body = Data(
            ("ignored preamble\r\n--xyz\r\nContent-Disposition: form-data; name=\"a%22b\"\r\n\r\none\r\n"
                + "--xyz  \r\ncontent-disposition: form-data; name=\"f\"; filename=\"x %22y%22.txt\"\r\n"
                + "Content-Type: text/plain\r\n\r\nline\r\n--xy not a boundary\r\n--xyz--\r\nepilogue").utf8)
        let form = try MultipartFormData(body: body, boundary: "xyz")
        #expect(form.parts.count == 2)
        #expect(form.parts[0] == .init(name: "a\"b", fileName: nil, contentType: nil, data: Data("one".utf8)))
        #expect(form.parts[1].fileName == "x \"y\".txt")
        #expect(form.parts[1].contentType == "text/plain")
        #expect(form.parts[1].data == Data("line\r\n--xy not a boundary".utf8))
    }

    @Test(arguments: [
        "--xyz\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nunterminated",
        "--xyz\r\nContent-Type: text/plain\r\n\r\nno disposition\r\n--xyz--",
        "--xyz\r\nContent-Disposition: attachment; name=\"a\"\r\n\r\nx\r\n--xyz--",
        "--xyz\r\nContent-Disposition: form-data\r\n\r\nno name\r\n--xyz--",
        "--xyz\r\n Content-Disposition: form-data; name=\"a\"\r\n\r\nfolded\r\n--xyz--",
        "--xyzjunk\r\n",
        "no boundary at all",
        "--xyz--",
    ])
    func multipartRefusesMalformedBodies(_ text: String) {
        #expect(throws: Problem.self) { try MultipartFormData(body: Data(text.utf8), boundary: "xyz") }
    }

    @Test func multipartLimits() {
        let many =
            String(repeating: "--b\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n1\r\n", count: 17) + "--b--"
        #expect(throws: Problem.self) { try MultipartFormData(body: Data(many.utf8), boundary: "b") }
        let longHead = "--b\r\nX-Pad: " + String(repeating: "p", count: 9000) + "\r\n\r\n1\r\n--b--"
        #expect(throws: Problem.self) { try MultipartFormData(body: Data(longHead.utf8), boundary: "b") }
        #expect(throws: Problem.self) {
            try MultipartFormData(body: Data(), boundary: String(repeating: "b", count: 71))
        }
    }

    @Test func queryStringDecodesPercentOnly() throws {
        let query = try QueryString("cursor=a%2Bb+c&limit=5&empty&x=%C3%A9")
        #expect(try query.single("cursor") == "a+b+c")
        #expect(try query.single("limit") == "5")
        #expect(try query.single("empty") == "")
        #expect(try query.single("x") == "é")
        #expect(try query.single("absent") == nil)
        #expect(throws: Problem.self) { try QueryString("a=%zz") }
        #expect(throws: Problem.self) { try QueryString("a=%FF") }
        #expect(throws: Problem.self) { try QueryString("a=1&a=2").single("a") }
    }

    @Test func mediaTypes() throws {
        let type = try #require(MediaType(#"Multipart/Form-Data; charset=utf-8; boundary="a \"b\"""#))
        #expect(type.essence == "multipart/form-data")
        #expect(type.parameter("boundary") == "a \"b\"")
        #expect(type.parameter("charset") == "utf-8")
        #expect(MediaType("application/json")?.essence == "application/json")
        #expect(MediaType("json") == nil)
        #expect(MediaType("text/plain; x") == nil)
        #expect(MediaType.isBareMediaType("image/png"))
        #expect(!MediaType.isBareMediaType("image/png; q=1"))
        #expect(!MediaType.isBareMediaType("image"))
    }

    @Test func cursorsAreBoundToTheirList() throws {
        let followers = PageCursor.followers(user: "a.b/c", sequence: 7).encoded
        #expect(try PageCursor.decodeFollowers(followers, user: "a.b/c") == 7)
        #expect(throws: Problem.self) { try PageCursor.decodeFollowers(followers, user: "other") }
        #expect(throws: Problem.self) { try PageCursor.decodeTimeline(followers, user: "a.b/c") }
        let timeline = PageCursor.timeline(user: "bob", createdAt: 1_700_000_000, postID: "p.1").encoded
        let position = try PageCursor.decodeTimeline(timeline, user: "bob")
        #expect(position.createdAt == 1_700_000_000 && position.postID == "p.1")
        #expect(throws: Problem.self) { try PageCursor.decodeTimeline("t1.!!.1.x", user: "bob") }
    }

    @Test func routerRefusalsGetContractCodes() async throws {
        var table = RouteTable()
        table.add("GET", "/v1/users/:id") { _, _ throws(Problem) in throw Problem(.userNotFound, "x") }
        let cases: [(String, String, Int, String)] = [
            ("GET", "/v1/nowhere", 404, "not_found"),
            ("POST", "/v1/users/bob", 405, "method_not_allowed"),
            ("GET", "/v1/users/%zz", 400, "invalid_request"),
            ("GET", "/v1/users/bob", 404, "user_not_found"),
        ]
        for (method, target, status, code) in cases {
            let response = await table.router.handle(ServerRequest(method: method, target: target))
            #expect(response.status == status, "\(method) \(target)")
            let body = try RequestBody.json(Self.jsonRequest(response.body), as: ProblemCodeOnly.self)
            #expect(body.code == code, "\(method) \(target)")
            #expect((response.headers["Allow"] != nil) == (status == 405), "\(method) \(target)")
        }
        let refused = await table.router.handle(ServerRequest(method: "POST", target: "/v1/users/bob"))
        #expect(refused.headers["Allow"] == "GET, HEAD")
    }

    @Test func seededGeneratorRepeats() {
        var first = SeededGenerator(seed: 9)
        var second = SeededGenerator(seed: 9)
        let a = (0..<8).map { _ in first.next() }
        #expect(a == (0..<8).map { _ in second.next() })
        var third = SeededGenerator(seed: 10)
        #expect(a != (0..<8).map { _ in third.next() })
        #expect((0..<1000).allSatisfy { _ in (0..<1).contains(first.nextUnitInterval()) })
    }
}
