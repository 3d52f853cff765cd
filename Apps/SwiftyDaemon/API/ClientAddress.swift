import Foundation
import Glibc
import HTTPTypes

/// The client's address behind trusted proxies: the connection's peer, unless that peer is a
/// trusted proxy, in which case the chain in `Forwarded` (RFC 7239) or else `X-Forwarded-For`
/// is read from the right, skipping the trusted proxies, and the first other address is the client.
///
/// Only proxies the operator lists are believed: a client cannot name itself by sending the
/// fields, because the addresses they hold are used only when the connection comes from a
/// trusted proxy, and only up to the first address that is not one.
enum ClientAddress {
    /// The client's address for a request from `peer` with `headers`.
    static func resolve(peer: String, headers: HTTPHeaders, trusted: Set<String>) -> String {
        guard trusted.contains(peer) else { return peer }
        var chain: [String] = []
        let forwarded = headers.values(for: "Forwarded")
        if !forwarded.isEmpty {
            for value in forwarded {
                for element in value.split(separator: ",") {
                    for pair in element.split(separator: ";") {
                        let parts = pair.split(separator: "=", maxSplits: 1)
                        guard parts.count == 2,
                            parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "for"
                        else { continue }
                        chain.append(node(String(parts[1])))
                    }
                }
            }
        } else {
            for value in headers.values(for: "X-Forwarded-For") {
                chain += value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            }
        }
        for address in chain.reversed() where !trusted.contains(address) {
            return isNumeric(address) ? address : peer
        }
        return chain.first.flatMap { isNumeric($0) ? $0 : nil } ?? peer
    }

    /// The address in a `Forwarded` node: quotes, brackets and a port taken off.
    private static func node(_ raw: String) -> String {
        var text = raw.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = String(text.dropFirst().dropLast()) }
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return text }
            return String(text[text.index(after: text.startIndex)..<close])
        }
        if let colon = text.firstIndex(of: ":"), text.filter({ $0 == ":" }).count == 1 {
            return String(text[..<colon])
        }
        return text
    }

    /// Whether `text` is a numeric IPv4 or IPv6 address.
    static func isNumeric(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }
}
