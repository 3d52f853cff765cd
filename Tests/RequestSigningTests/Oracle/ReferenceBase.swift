import Foundation
import HTTPTypes
import ServiceCore

@testable import RequestSigning

/// The reference signature base (RFC 9421 §2.5), written for clarity over strings and arrays:
/// the oracle the production signer and verifier are checked against, byte for byte.
enum ReferenceBase {
    /// The base of `input` over `message`.
    static func bytes(message: SignableMessage, input: SignatureInput) throws(SigningError) -> [UInt8] {
        var base: [UInt8] = []
        for (index, component) in input.components.enumerated() {
            guard !input.components[..<index].contains(component) else {
                throw SigningError(.invalidComponent, "\(component) is covered more than once")
            }
            base += Array(component.description.utf8) + Array(": ".utf8)
            base += try value(of: component, in: message)
            base.append(0x0A)
        }
        base += Array("\"@signature-params\": ".utf8)
        base += Array(try input.serializedValue().utf8)
        return base
    }

    /// One component's value.
    static func value(of component: ComponentIdentifier, in message: SignableMessage) throws(SigningError) -> [UInt8] {
        if component.parameters["req"] == .boolean(true) {
            guard message.isResponse else { throw SigningError(.invalidComponent, "req on a request") }
            guard let request = message.request else { throw SigningError(.missingComponent, "no related request") }
            var parameters = component.parameters
            parameters["req"] = nil
            return try value(of: ComponentIdentifier(unchecked: component.name, parameters: parameters), in: request)
        }
        if component.name.hasPrefix("@") { return try derived(component, in: message) }
        return try field(component, in: message)
    }

    private static func visible(_ text: String) throws(SigningError) -> [UInt8] {
        let bytes = Array(text.utf8)
        guard bytes.allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else {
            throw SigningError(.invalidComponent, "a space or control character")
        }
        return bytes
    }

    private static func lowercased(_ text: String) -> [UInt8] {
        text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
    }

    /// Host lowercased, surrounding spaces and tabs and the default port removed.
    private static func authority(of message: SignableMessage) throws(SigningError) -> [UInt8] {
        var text = Substring(message.authority)
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        let scheme = String(decoding: lowercased(message.scheme), as: UTF8.self)
        let port = scheme == "https" ? ":443" : scheme == "http" ? ":80" : nil
        if let port, text.hasSuffix(port), text.count > port.count {
            let host = text.dropLast(port.count)
            // A bare IPv6 address has colons but no port; a bracketed one keeps its port after `]`.
            if !host.contains(":") || host.hasSuffix("]") { text = host }
        }
        guard !text.isEmpty else { throw SigningError(.missingComponent, "no authority") }
        _ = try visible(String(text))
        return lowercased(String(text))
    }

    private static func derived(_ component: ComponentIdentifier, in message: SignableMessage) throws(SigningError)
        -> [UInt8]
    {
        if component.name == "@status" {
            guard let status = message.status, (100...999).contains(status) else {
                throw SigningError(.invalidComponent, "no three-digit status")
            }
            return Array(String(status).utf8)
        }
        guard !message.isResponse else { throw SigningError(.invalidComponent, "a request component on a response") }
        let path = message.path.isEmpty ? "/" : message.path
        switch component.name {
        case "@method": return try visible(message.method)
        case "@authority": return try authority(of: message)
        case "@scheme": return lowercased(message.scheme)
        case "@path": return try visible(path)
        case "@query": return try Array("?".utf8) + visible(message.query ?? "")
        case "@request-target": return try visible(message.requestTarget)
        case "@target-uri":
            var uri =
                lowercased(message.scheme) + Array("://".utf8) + (try authority(of: message)) + (try visible(path))
            if let query = message.query { uri += Array("?".utf8) + (try visible(query)) }
            return uri
        case "@query-param":
            guard let wanted = component.parameters["name"]?.stringValue else {
                throw SigningError(.invalidComponent, "no name")
            }
            var found: [[UInt8]] = []
            for pair in (message.query ?? "").split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                var name: [UInt8] = []
                FormURLEncoding.encode(FormURLEncoding.decode(parts[0].utf8), into: &name)
                guard name == Array(wanted.utf8) else { continue }
                var value: [UInt8] = []
                if parts.count > 1 { FormURLEncoding.encode(FormURLEncoding.decode(parts[1].utf8), into: &value) }
                found.append(value)
            }
            guard found.count <= 1 else { throw SigningError(.invalidComponent, "a repeated query parameter") }
            guard let value = found.first else { throw SigningError(.missingComponent, "no such query parameter") }
            return value
        default:
            throw SigningError(.invalidComponent, "unknown derived component")
        }
    }

    /// A field line's value: trimmed, each obs-fold replaced by one space, no other controls.
    private static func clean(_ value: String) throws(SigningError) -> [UInt8] {
        var bytes = Array(value.utf8)
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        while let first = bytes.first, isSpace(first) { bytes.removeFirst() }
        while let last = bytes.last, isSpace(last) { bytes.removeLast() }
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0D || byte == 0x0A {
                var next = index + (byte == 0x0D ? 1 : 0)
                if byte == 0x0D {
                    guard next < bytes.count, bytes[next] == 0x0A else {
                        throw SigningError(.invalidComponent, "a bare CR")
                    }
                }
                next += 1
                guard next < bytes.count, isSpace(bytes[next]) else {
                    throw SigningError(.invalidComponent, "a line break")
                }
                while next < bytes.count, isSpace(bytes[next]) { next += 1 }
                while let last = output.last, isSpace(last) { output.removeLast() }
                output.append(0x20)
                index = next
                continue
            }
            guard byte >= 0x20 || byte == 0x09, byte != 0x7F else {
                throw SigningError(.invalidComponent, "a control character")
            }
            output.append(byte)
            index += 1
        }
        return output
    }

    private static func field(_ component: ComponentIdentifier, in message: SignableMessage) throws(SigningError)
        -> [UInt8]
    {
        let parameters = component.parameters
        let fields = parameters["tr"] != nil ? message.trailers : message.headers
        var lines: [[UInt8]] = []
        for field in fields where field.name.lowercased() == component.name {
            lines.append(try clean(field.value))
        }
        guard !lines.isEmpty else { throw SigningError(.missingComponent, "no field \(component.name)") }
        if parameters["bs"] != nil {
            let encoded = lines.map { ":" + Data($0).base64EncodedString() + ":" }
            return Array(encoded.joined(separator: ", ").utf8)
        }
        let combined = String(decoding: Array(lines.joined(separator: Array(", ".utf8))), as: UTF8.self)
        var output: [UInt8] = []
        do {
            if let key = parameters["key"]?.stringValue {
                guard let member = try SFParser.parseDictionary(combined)[key] else {
                    throw SigningError(.missingComponent, "no key \(key)")
                }
                try SFSerializer.appendMember(member, to: &output)
                return output
            }
            guard parameters["sf"] != nil else { return Array(combined.utf8) }
            switch SignableMessage.structuredFieldTypes[component.name] {
            case .dictionary: try SFSerializer.appendDictionary(try SFParser.parseDictionary(combined), to: &output)
            case .list: try SFSerializer.appendList(try SFParser.parseList(combined), to: &output)
            case .item: try SFSerializer.appendItem(try SFParser.parseItem(combined), to: &output)
            case nil:
                if let dictionary = try? SFParser.parseDictionary(combined) {
                    try SFSerializer.appendDictionary(dictionary, to: &output)
                } else if let list = try? SFParser.parseList(combined) {
                    try SFSerializer.appendList(list, to: &output)
                } else {
                    try SFSerializer.appendItem(try SFParser.parseItem(combined), to: &output)
                }
            }
            return output
        } catch let error as SigningError {
            throw error
        } catch {
            throw SigningError(.invalidComponent, "\(component): \(error)")
        }
    }
}
