import Foundation
import ServiceCore
import Testing

/// The exact request a case must produce.
struct ExpectedRequest: Sendable {
    var method: HTTPMethod
    var url: String
    var headers: [(String, String)]
    var body: String?

    /// Checks every part of `request` against this expectation.
    func check(_ request: HTTPRequest, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(request.method == method, sourceLocation: sourceLocation)
        #expect(request.url.absoluteString == url, sourceLocation: sourceLocation)
        #expect(
            request.headers.fields == headers.map { HTTPHeaders.Field(name: $0.0, value: $0.1) },
            sourceLocation: sourceLocation
        )
        #expect(request.body.map { String(decoding: $0, as: UTF8.self) } == body, sourceLocation: sourceLocation)
    }
}
