import Foundation
import Testing

@testable import HTTPTypes

struct HTTPRequestTests {
    /// Replacing the fields keeps everything else, including whether the URL was given as a `URL`
    /// or as checked text.
    @Test func replacingHeadersKeepsTheRest() throws {
        let body = Data("{}".utf8)
        let fromURL = HTTPRequest(
            method: .post, url: try #require(URL(string: "https://api.example.com/v1/a?b=1")),
            headers: ["Accept": "application/json"], body: body, timeout: .seconds(3))
        let fromText = HTTPRequest(
            method: .get, checkedURLString: "http://127.0.0.1:8080/v1/c", headers: ["A": "1"], body: nil,
            timeout: nil)
        for original in [fromURL, fromText] {
            let replaced = original.replacingHeaders(["X-One": "1", "X-Two": "2"])
            #expect(replaced.headers.map(\.name) == ["X-One", "X-Two"])
            #expect(replaced.method == original.method)
            #expect(replaced.urlString == original.urlString)
            #expect(replaced.checkedURLString == original.checkedURLString)
            #expect(replaced.url == original.url)
            #expect(replaced.body == original.body)
            #expect(replaced.timeout == original.timeout)
            #expect(original.headers.count == 1)
        }
    }
}
