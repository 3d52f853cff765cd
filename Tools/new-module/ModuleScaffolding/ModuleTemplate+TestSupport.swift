extension ModuleTemplate {
    /// `Support/ExpectedRequest.swift`: the exact-request expectation of the module's tests.
    static let expectedRequest = #"""
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

        """#

    /// `Support/MockTransport+Problem.swift`: a problem-answer preset for the module's tests.
    static let problemReply = #"""
        import Foundation
        import ServiceTesting

        extension MockTransport.Reply {
            /// An RFC 9457 problem answer: the JSON text with `Content-Type: application/problem+json`.
            static func problem(_ status: Int, _ json: String) -> MockTransport.Reply {
                .data(status, Data(json.utf8), contentType: "application/problem+json")
            }
        }

        """#
}
