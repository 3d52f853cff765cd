import Foundation
import HTTPTypes
import ServiceCore
import Testing

struct RequestBuildingTests {
    let transport = ClosureTransport.json(200, "{}")

    @Test(arguments: [
        ("https://api.example.com", "https://api.example.com/v1/users/alice"),
        ("https://api.example.com/", "https://api.example.com/v1/users/alice"),
        ("https://api.example.com/users", "https://api.example.com/users/v1/users/alice"),
        ("https://api.example.com/users/", "https://api.example.com/users/v1/users/alice"),
        ("http://127.0.0.1:8081//", "http://127.0.0.1:8081/v1/users/alice"),
    ])
    func baseURLsJoinWithoutDoubleSlashes(base: String, expected: String) throws {
        let client = try ServiceClient<DemoService>(baseURL: base, transport: transport)
        #expect(try client.makeRequest(.profile(id: "alice")).url.absoluteString == expected)
    }

    @Test func relativePathWithoutLeadingSlashGetsOne() throws {
        let client = try ServiceClient<DemoService>(baseURL: "https://h.example/api", transport: transport)
        let request = try client.makeRequest(.create(Profile(id: "a", name: "b")))
        #expect(request.url.absoluteString == "https://h.example/api/v1/users")
    }

    @Test(arguments: [
        ("a/b", "a%2Fb"),
        ("../admin", "..%2Fadmin"),
        ("x?admin=1", "x%3Fadmin%3D1"),
        ("x#frag", "x%23frag"),
        ("two words", "two%20words"),
        ("100%", "100%25"),
        ("zoë", "zo%C3%AB"),
        ("日本", "%E6%97%A5%E6%9C%AC"),
        ("a\u{0}b", "a%00b"),
        ("safe-._~", "safe-._~"),
        (".", "%2E"),
        ("..", "%2E%2E"),
        ("...", "..."),
    ])
    func hostileIDsStayOneSegment(id: String, encoded: String) throws {
        let client = try ServiceClient<DemoService>(baseURL: "https://h.example", transport: transport)
        let url = try client.makeRequest(.profile(id: id)).url
        #expect(url.absoluteString == "https://h.example/v1/users/\(encoded)")
        #expect(url.query == nil)
        #expect(url.fragment == nil)
    }

    /// The client no longer parses the URL it builds: its text must parse, to the same text,
    /// for every base URL form and hostile path segment and query.
    @Test(arguments: [
        "https://api.example.com", "https://api.example.com/", "http://127.0.0.1:8081//", "HTTPS://H.Example/Up/",
        "http://[::1]:9000/p%20q/", "https://h.example/a;b=c/@x:y/",
    ])
    func builtURLTextParsesToTheSameURL(base: String) throws {
        let client = try ServiceClient<DemoService>(baseURL: base, transport: transport)
        let ids = [
            "a/b", "../admin", "x?y#z", "two words", "100%", "zoë", "日本", "a\u{0}b", ".", "..", "", "~-._", "+&=;:@",
        ]
        for id in ids {
            for service in [DemoService.profile(id: id), .search(["q": .string(id), id: [.string(id), 1.5e300]])] {
                let request = try client.makeRequest(service)
                let parsed = try #require(URL(string: request.urlString), "\(base) \(id)")
                #expect(parsed.absoluteString == request.urlString)
                #expect(request.url.absoluteString == request.urlString)
                #expect(parsed.fragment == nil)
                #expect(URLComponents(url: parsed, resolvingAgainstBaseURL: false)?.host?.isEmpty == false)
            }
        }
    }

    @Test func settingTheURLReplacesTheText() throws {
        let client = try ServiceClient<DemoService>(baseURL: "https://h.example", transport: transport)
        var request = try client.makeRequest(.profile(id: "a b"))
        #expect(request.urlString == "https://h.example/v1/users/a%20b")
        request.url = try #require(URL(string: "http://other.example/x?y=1"))
        #expect(request.urlString == "http://other.example/x?y=1")
        #expect(request.url.host == "other.example")
        let made = HTTPRequest(method: .get, url: try #require(URL(string: "https://h.example/p%2Fq")))
        #expect(made.urlString == "https://h.example/p%2Fq")
    }

    @Test(arguments: [
        "", "api.example.com", "ftp://api.example.com", "https://", "https://h.example?x=1",
        "https://h.example#top", "https://user:pw@h.example", "not a url at all",
    ])
    func invalidBaseURLFailsWhenTheClientIsMade(base: String) {
        #expect {
            try ServiceClient<DemoService>(baseURL: base, transport: transport)
        } throws: { error in
            let error = try #require(error as? ServiceError)
            return error.code == .invalidConfiguration && error.module == "DemoModule"
                && !error.description.contains("pw")
        }
    }

    @Test func queryValuesFollowTheDocumentedRules() throws {
        let client = try ServiceClient<DemoService>(baseURL: "https://h.example", transport: transport)
        let query: QueryParameters = [
            "q": "a b&c=d+e", "limit": 20, "cursor": nil, "tag": ["x", "y"], "on": true, "off": false, "ratio": 0.5,
            "none": [],
        ]
        let url = try client.makeRequest(.search(query)).url.absoluteString
        #expect(
            url == "https://h.example/v1/search?q=a%20b%26c%3Dd%2Be&limit=20&tag=x&tag=y&on=true&off=false&ratio=0.5"
        )
    }

    @Test func arrayAndBoolEncodingsAreConfigurable() {
        var query: QueryParameters = ["tag": ["x", "y"], "on": true]
        query.encoding = QueryEncoding(arrays: .brackets, bools: .numeric)
        #expect(query.percentEncodedQuery == "tag%5B%5D=x&tag%5B%5D=y&on=1")
        query.encoding = QueryEncoding(arrays: .commaSeparated)
        #expect(query.percentEncodedQuery == "tag=x%2Cy&on=true")
    }

    /// The query text is written without making ``QueryParameters/pairs``; it must still be
    /// exactly those pairs, each name and value percent-encoded (checked against Foundation's
    /// encoder with the RFC 3986 unreserved set).
    @Test(arguments: [
        QueryEncoding(), QueryEncoding(arrays: .brackets, bools: .numeric),
        QueryEncoding(arrays: .commaSeparated), QueryEncoding(arrays: .commaSeparated, bools: .numeric),
    ])
    func queryTextIsTheEncodedPairs(encoding: QueryEncoding) throws {
        var query: QueryParameters = [
            "q": "a b&c=d+e,[x]#é/?", "n": -42, "big": 1e300, "small": -1.5e-7, "on": true, "off": false,
            "tags": ["x y", ["nested", 7, 0.5], [], false], "empty": [], "na me[]": "", "": "v",
        ]
        query.encoding = encoding
        let unreserved = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        func encode(_ text: String) throws -> String {
            try #require(text.addingPercentEncoding(withAllowedCharacters: unreserved))
        }
        let expected = try query.pairs.map { try encode($0.name) + "=" + encode($0.value) }.joined(separator: "&")
        #expect(query.percentEncodedQuery == expected)
        let client = try ServiceClient<DemoService>(baseURL: "https://h.example", transport: transport)
        #expect(try client.makeRequest(.search(query)).urlString == "https://h.example/v1/search?" + expected)
    }

    @Test func nestedArraysInAQuery() {
        var query: QueryParameters = ["t": ["a", ["b", "c"], []]]
        #expect(query.percentEncodedQuery == "t=a&t=b&t=c")
        query.encoding = QueryEncoding(arrays: .brackets)
        #expect(query.percentEncodedQuery == "t%5B%5D=a&t%5B%5D%5B%5D=b&t%5B%5D%5B%5D=c")
        query.encoding = QueryEncoding(arrays: .commaSeparated)
        #expect(query.percentEncodedQuery == "t=a%2C%2C")
    }

    @Test func jsonBodyIsEncodedWithContentType() throws {
        let client = try ServiceClient<DemoService>(
            baseURL: "https://h.example",
            transport: transport,
            configuration: sortedEncoder()
        )
        let request = try client.makeRequest(.create(Profile(id: "a1", name: "Zoë")))
        #expect(request.method == .post)
        #expect(text(request.body) == #"{"id":"a1","name":"Zoë"}"#)
        #expect(request.headers["content-type"] == "application/json")
        #expect(request.headers["Accept"] == "application/json")
        #expect(request.headers["X-Trace"] == "1")
        #expect(request.timeout == .seconds(10))
    }

    @Test func formBodyUsesPlusForSpaces() throws {
        let client = try ServiceClient<DemoService>(baseURL: "https://h.example", transport: transport)
        let request = try client.makeRequest(.form(["name": "Zoë Smith", "note": "a&b=c*", "n": 3]))
        #expect(text(request.body) == "name=Zo%C3%AB+Smith&note=a%26b%3Dc*&n=3")
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
    }

    @Test func multipartBodyIsExactBytes() throws {
        let client = try ServiceClient<DemoService>(baseURL: "https://h.example", transport: transport)
        let request = try client.makeRequest(.upload("notes \"1\".txt"))
        let expected =
            "--BOUNDARY\r\n"
            + "Content-Disposition: form-data; name=\"title\"\r\n\r\n"
            + "Hi \"you\"\r\n"
            + "--BOUNDARY\r\n"
            + "Content-Disposition: form-data; name=\"file\"; filename=\"notes %221%22.txt\"\r\n"
            + "Content-Type: text/plain\r\n\r\n"
            + "hello\r\n\r\n"
            + "--BOUNDARY--\r\n"
        #expect(text(request.body) == expected)
        #expect(request.headers["Content-Type"] == "multipart/form-data; boundary=BOUNDARY")
        #expect(request.url.absoluteString == "https://h.example/v1/files/notes%20%221%22.txt")
    }

    @Test func randomMultipartBoundaryIsValidAndFresh() throws {
        let client = try ServiceClient<DemoService>(baseURL: "https://h.example", transport: transport)
        struct Upload: Service {
            var path: RequestPath { "/u" }
            var method: HTTPMethod { .post }
            var task: RequestTask { .multipart([.field("a", "b")]) }
        }
        let uploads = try ServiceClient<Upload>(baseURL: "https://h.example", transport: transport)
        let first = try #require(uploads.makeRequest(Upload()).headers["Content-Type"])
        let second = try #require(uploads.makeRequest(Upload()).headers["Content-Type"])
        #expect(first.hasPrefix("multipart/form-data; boundary=swifty-"))
        #expect(first != second)
        _ = client
    }

    @Test func rawDataKeepsBytesAndType() throws {
        let client = try ServiceClient<DemoService>(baseURL: "https://h.example", transport: transport)
        let bytes = Data([0, 1, 2, 255, 13, 10])
        let request = try client.makeRequest(.raw(bytes))
        #expect(request.body == bytes)
        #expect(request.headers["Content-Type"] == "application/octet-stream")
    }

    @Test func queryAndBodyTogether() throws {
        let client = try ServiceClient<DemoService>(
            baseURL: "https://h.example",
            transport: transport,
            configuration: sortedEncoder()
        )
        let request = try client.makeRequest(.filteredCreate(Profile(id: "a", name: "b"), dryRun: true))
        #expect(request.url.absoluteString == "https://h.example/v1/users?dry_run=true")
        #expect(text(request.body) == #"{"id":"a","name":"b"}"#)
    }

    @Test func customMethodAndEmptyPath() throws {
        let client = try ServiceClient<DemoService>(baseURL: "https://h.example/cache/", transport: transport)
        let request = try client.makeRequest(.custom)
        #expect(request.method.rawValue == "PURGE")
        #expect(request.url.absoluteString == "https://h.example/cache")
        #expect(request.body == nil)
    }

    @Test func defaultPolicyFollowsTheMethod() {
        #expect(RequestPolicy.default(for: .get).retry == .idempotent)
        #expect(RequestPolicy.default(for: .put).retry == .idempotent)
        #expect(RequestPolicy.default(for: .delete).retry == .idempotent)
        #expect(RequestPolicy.default(for: .post).retry == .never)
        #expect(RequestPolicy.default(for: .patch).retry == .never)
    }

    @Test func operationNameLeavesOutAssociatedValues() {
        #expect(DemoService.profile(id: "secret-token").operationName == "profile")
        #expect(DemoService.custom.operationName == "custom")
        #expect(DemoService.filteredCreate(Profile(id: "a", name: "b"), dryRun: true).operationName == "filteredCreate")
    }

    @Test func validateRunsBeforeAnythingIsBuilt() throws {
        struct Checked: Service {
            var id: String
            var path: RequestPath { "/v1/things/\(id)" }
            var method: HTTPMethod { .get }
            func validate() throws {
                guard !id.isEmpty else {
                    throw ServiceError(
                        code: .invalidRequest, module: "M", operation: "thing", message: "id must not be empty")
                }
            }
        }
        let client = try ServiceClient<Checked>(baseURL: "https://h.example", transport: transport)
        #expect(try client.makeRequest(Checked(id: "x")).url.absoluteString == "https://h.example/v1/things/x")
        #expect {
            try client.makeRequest(Checked(id: ""))
        } throws: { error in
            (error as? ServiceError)?.message == "id must not be empty"
        }
    }

    @Test func invalidLiteralPathIsAnInvalidRequest() throws {
        struct Broken: Service {
            var path: RequestPath { "/has space" }
            var method: HTTPMethod { .get }
        }
        let client = try ServiceClient<Broken>(baseURL: "https://h.example", transport: transport)
        #expect {
            try client.makeRequest(Broken())
        } throws: { error in
            (error as? ServiceError)?.code == .invalidRequest
        }
    }
}
