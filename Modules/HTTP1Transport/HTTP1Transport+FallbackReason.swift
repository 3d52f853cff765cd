extension HTTP1Transport {
    /// Why a request went to the fallback transport instead of the loop-native fast path.
    public enum FallbackReason: String, Sendable, Hashable, CaseIterable {
        /// An `https` URL: TLS is the fallback's.
        case https
        /// A URL with user information (`http://user:password@host/`).
        case userInfo = "user_info"
        /// Another URL the fast path does not read: not `http`, a percent-encoded host, a bad port.
        case otherURL = "other_url"
        /// Sent from a thread that is not one of the transport's event loops (or with
        /// ``Configuration-swift.struct/usesCallerEventLoop`` off).
        case offLoop = "off_loop"

        /// The reason a URL the fast path refused goes to the fallback.
        static func of(url text: String) -> FallbackReason {
            let lowered = text.prefix(8).lowercased()
            if lowered.hasPrefix("https://") { return .https }
            if lowered.hasPrefix("http://") {
                let authority = text.dropFirst(7).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
                if authority.contains("@") { return .userInfo }
            }
            return .otherURL
        }
    }
}
