public import HTTPTypes

/// The header fields of a request or an answer: ``HTTPTypes/HTTPHeaders``.
///
/// An ordered list with case-insensitive lookup: fields keep the order and spelling in which they
/// were received (or added), and repeated names stay separate fields, so a signature verifier
/// sees exactly what the client sent. Being the same type as a client's headers, a request's
/// fields go to a signer or verifier, and an upstream answer's to a response, without a copy.
public typealias ServerHeaders = HTTPHeaders

extension HTTPHeaders {
    /// Whether `name` is a field the server sets itself when answering: framing (`Content-Length`,
    /// `Transfer-Encoding`, `Trailer`) and connection-specific fields (RFC 9110 section 7.6.1).
    static func isConnectionSpecific(_ name: String) -> Bool {
        switch name.utf8.count {
        case 2: name.equalsIgnoringASCIICase("TE")
        case 7: name.equalsIgnoringASCIICase("Upgrade") || name.equalsIgnoringASCIICase("Trailer")
        case 10: name.equalsIgnoringASCIICase("Connection") || name.equalsIgnoringASCIICase("Keep-Alive")
        case 14: name.equalsIgnoringASCIICase("Content-Length")
        case 16: name.equalsIgnoringASCIICase("Proxy-Connection")
        case 17: name.equalsIgnoringASCIICase("Transfer-Encoding")
        default: false
        }
    }
}
