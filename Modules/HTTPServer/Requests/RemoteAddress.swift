import Glibc

/// A client's IP address as a request carries it: the bytes the connection reported, formatted
/// as text only when asked for (``ServerRequest/remoteAddress``), or text given by whoever made
/// the request.
///
/// The server fills it for every request, and most handlers never read it: keeping 16 bytes
/// instead of formatting a string per request takes `inet_ntop` and an allocation off every request.
/// Two values are equal when they hold the same form: bytes and text for one address are not.
struct RemoteAddress: Sendable, Hashable {
    private enum Storage: Sendable, Hashable {
        case unknown
        case text(String)
        case ipv4(UInt32)
        case ipv6(UInt64, UInt64)
    }

    private var storage: Storage

    /// No address (formats as an empty string).
    static let unknown = RemoteAddress(storage: .unknown)

    private init(storage: Storage) {
        self.storage = storage
    }

    /// An address given as text, kept as it is.
    init(text: String) {
        storage = text.isEmpty ? .unknown : .text(text)
    }

    /// An address from its family (`AF_INET` or `AF_INET6`) and its bytes in network order (4
    /// or 16 of them); any other family is ``unknown``.
    init(family: Int32, bytes: UnsafeRawBufferPointer) {
        switch family {
        case AF_INET where bytes.count >= 4:
            storage = .ipv4(bytes.loadUnaligned(as: UInt32.self))
        case AF_INET6 where bytes.count >= 16:
            storage = .ipv6(
                bytes.loadUnaligned(as: UInt64.self), bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        default:
            storage = .unknown
        }
    }

    /// The numeric form (`127.0.0.1`, `::1`), or an empty string when unknown.
    var text: String {
        switch storage {
        case .unknown:
            return ""
        case .text(let text):
            return text
        case .ipv4(let raw):
            let address = in_addr(s_addr: raw)
            return withUnsafeBytes(of: address) { Self.format(AF_INET, $0) }
        case .ipv6(let high, let low):
            var address = in6_addr()
            withUnsafeMutableBytes(of: &address) { bytes in
                bytes.storeBytes(of: high, as: UInt64.self)
                bytes.storeBytes(of: low, toByteOffset: 8, as: UInt64.self)
            }
            return withUnsafeBytes(of: address) { Self.format(AF_INET6, $0) }
        }
    }

    /// `inet_ntop` of an `in_addr` or `in6_addr` given as its bytes.
    private static func format(_ family: Int32, _ address: UnsafeRawBufferPointer) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN)) { buffer -> String in
            guard let base = buffer.baseAddress,
                inet_ntop(family, address.baseAddress, base, socklen_t(INET6_ADDRSTRLEN)) != nil
            else { return "" }
            return String(cString: base)
        }
    }
}
