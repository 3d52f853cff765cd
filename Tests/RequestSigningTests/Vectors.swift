import Foundation
import HTTPTypes
import RequestSigning
import ServiceCore

/// The published test vectors, read from the test bundle's `Vectors` folder.
enum Vectors {
    struct RFC4231: Decodable {
        struct Case: Decodable, Sendable, CustomStringConvertible {
            var test_case: Int
            var key_hex: String
            var data_hex: String
            var expected: [String: String]
            var truncate_to_bits: Int?
            var description: String { "RFC 4231 case \(test_case)" }
        }
        var cases: [Case]
    }

    struct RFC9530: Decodable {
        struct Case: Decodable, Sendable, CustomStringConvertible {
            var id: String
            var algorithm_key: String
            var input_hex: String
            var expected_digest_b64: String
            var field_value: String
            var description: String { id }
        }
        var cases: [Case]
    }

    struct RFC9421: Decodable {
        struct Key: Decodable {
            var base64: String?
        }
        struct Message: Decodable, Sendable {
            var kind: String
            var headers: [[String]]
            var body: String
            var method: String?
            var target: String?
            var status: Int?
        }
        struct Case: Decodable, Sendable, CustomStringConvertible {
            var id: String
            var algorithm: String
            var keyid: String
            var message: String
            var label: String
            var signature_params_value: String
            var signature_base: String
            var signature_base_sha256_hex: String
            var signature_input_field: String
            var signature_field: String
            var signature_b64: String
            var related_request: String?
            var description: String { id }
        }
        struct ComponentExample: Decodable, Sendable, CustomStringConvertible {
            struct Line: Decodable, Sendable {
                var component_identifier: String
                var expected_base_line: String
            }
            var rfc9421_section: String
            var message_fragment: String
            var scheme_assumed: String
            var lines: [Line]
            var trailers: String?
            var description: String { "RFC 9421 §\(rfc9421_section)" }
        }
        struct TransformExample: Decodable, Sendable, CustomStringConvertible {
            var message: String
            var expected_valid: Bool
            var signature_base: String
            var description: String { message }
        }
        var keys: [String: Key]
        var messages: [String: Message]
        var cases: [Case]
        var component_value_examples: [ComponentExample]
        var transform_examples_b4: [TransformExample]
    }

    static func load<T: Decodable>(_ name: String, as type: T.Type) throws -> T {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Vectors") else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "Vectors/\(name).json"])
        }
        return try JSONDecoder().decode(T.self, from: Data(contentsOf: url))
    }

    static let rfc4231: RFC4231 = (try? load("rfc4231", as: RFC4231.self)) ?? RFC4231(cases: [])
    static let rfc9530: RFC9530 = (try? load("rfc9530", as: RFC9530.self)) ?? RFC9530(cases: [])
    static let rfc9421: RFC9421? = try? load("rfc9421", as: RFC9421.self)

    static var rfc9421Cases: [RFC9421.Case] { rfc9421?.cases ?? [] }
    static var componentExamples: [RFC9421.ComponentExample] { rfc9421?.component_value_examples ?? [] }
    static var transformExamples: [RFC9421.TransformExample] { rfc9421?.transform_examples_b4 ?? [] }

    /// A vector message as a `SignableMessage` (scheme https, as the vector file assumes).
    static func message(_ name: String) throws -> SignableMessage {
        guard let vectors = rfc9421, let message = vectors.messages[name] else {
            throw CocoaError(.coderValueNotFound, userInfo: [NSDebugDescriptionErrorKey: "no message \(name)"])
        }
        let headers = HTTPHeaders(message.headers.map { ($0[0], $0[1]) })
        let body = message.body.isEmpty ? nil : Data(message.body.utf8)
        if let status = message.status {
            return SignableMessage(status: status, headers: headers, body: body)
        }
        return try SignableMessage(
            method: message.method ?? "GET", scheme: "https", requestTarget: message.target ?? "/", headers: headers,
            body: body)
    }

    /// Parses an RFC message fragment (request or status line, then header lines with LF, a
    /// continuation line starting with whitespace folded into the previous value as obs-fold).
    static func fragment(_ text: String, scheme: String, trailers: String?) throws -> SignableMessage {
        var lines = text.components(separatedBy: "\n")
        while lines.last == "" { lines.removeLast() }
        let start = lines.removeFirst()
        var fields: [(String, String)] = []
        for line in lines {
            if line.first == " " || line.first == "\t", !fields.isEmpty {
                fields[fields.count - 1].1 += "\r\n" + line
                continue
            }
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields.append((String(line[..<colon]), String(line[line.index(after: colon)...])))
        }
        let parts = start.split(separator: " ")
        var message: SignableMessage
        if start.hasPrefix("HTTP/") {
            message = SignableMessage(status: Int(parts[1]) ?? 0, headers: HTTPHeaders(fields))
        } else {
            message = try SignableMessage(
                method: String(parts[0]), scheme: scheme, requestTarget: String(parts[1]), headers: HTTPHeaders(fields))
        }
        if let trailers, let colon = trailers.firstIndex(of: ":") {
            message.trailers = HTTPHeaders([
                (String(trailers[..<colon]), String(trailers[trailers.index(after: colon)...]))
            ])
        }
        return message
    }

    static func bytes(hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return bytes
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
