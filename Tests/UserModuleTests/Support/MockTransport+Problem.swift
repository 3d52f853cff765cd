import Foundation
import ServiceTesting

extension MockTransport.Reply {
    /// An RFC 9457 problem answer: the JSON text with `Content-Type: application/problem+json`.
    static func problem(_ status: Int, _ json: String) -> MockTransport.Reply {
        .data(status, Data(json.utf8), contentType: "application/problem+json")
    }
}
