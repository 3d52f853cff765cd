/// The parts of a request that RFC 9421's derived components come from, as bytes: from a URL
/// (signing an `HTTPRequest`) or from a ``SignableMessage``'s strings. One writer,
/// ``writeDerived(_:to:)``, turns them into component values for the signer, the verifier and
/// the general evaluator alike.
struct RequestParts {
    var method: UnsafeBufferPointer<UInt8>
    var scheme: UnsafeBufferPointer<UInt8>
    /// The authority as sent (surrounding whitespace is removed when written).
    var authority: UnsafeBufferPointer<UInt8>
    /// The path, possibly empty.
    var path: UnsafeBufferPointer<UInt8>
    /// The query without `?`, or `nil` when there is no `?`.
    var query: UnsafeBufferPointer<UInt8>?
    /// The request target as received, or `nil` to derive it from the path and query.
    var requestTarget: UnsafeBufferPointer<UInt8>?
    /// Whether the message is a response (which has no derived request components).
    var isResponse: Bool
    /// Whether the scheme, authority, path and query are known to hold no space or control
    /// character: true for a URL's text (Foundation's `URL` and `ServiceClient` guarantee it),
    /// so it is not scanned again.
    var urlIsVisible = false

    /// Writes the value of a derived request component without parameters (`@method`,
    /// `@authority`, `@scheme`, `@target-uri`, `@request-target`, `@path`, `@query`).
    /// - Returns: `nil`, or why the component cannot be evaluated (`missingComponent` for an
    ///   empty authority, `invalidComponent` otherwise).
    func writeDerived(_ derived: ComponentIdentifier.Derived, to writer: inout ByteWriter) -> SigningError? {
        guard !isResponse else {
            return SigningError(
                .invalidComponent, "\"\(derived.name)\" applies to requests; a response covers it with \"req\"")
        }
        let visible: Bool
        switch derived {
        case .method:
            visible = ByteText.isVisible(method)
            writer.append(method)
        case .authority:
            return writeAuthority(derived, to: &writer)
        case .scheme:
            writer.appendLowercased(scheme)
            visible = true
        case .targetURI:
            writer.appendLowercased(scheme)
            writer.append("://")
            if let problem = writeAuthority(derived, to: &writer) { return problem }
            visible = writePath(to: &writer) && writeQuery(to: &writer, empty: false)
        case .requestTarget:
            if let requestTarget {
                visible = writeVisible(requestTarget, to: &writer)
            } else {
                visible = writePath(to: &writer) && writeQuery(to: &writer, empty: false)
            }
        case .path:
            visible = writePath(to: &writer)
        case .query:
            visible = writeQuery(to: &writer, empty: true)
        case .queryParameter, .status:
            return SigningError(.invalidComponent, "\"\(derived.name)\" is not evaluated from the request parts")
        }
        guard visible else {
            return SigningError(
                .invalidComponent, "the value of \"\(derived.name)\" contains a space or control character")
        }
        return nil
    }

    /// The path, `/` when empty.
    private func writePath(to writer: inout ByteWriter) -> Bool {
        guard !path.isEmpty else {
            writer.append(UInt8(ascii: "/"))
            return true
        }
        return writeVisible(path, to: &writer)
    }

    /// `?query`; with no query, `?` when `empty` is set, else nothing.
    private func writeQuery(to writer: inout ByteWriter, empty: Bool) -> Bool {
        guard let query else {
            if empty { writer.append(UInt8(ascii: "?")) }
            return true
        }
        writer.append(UInt8(ascii: "?"))
        return writeVisible(query, to: &writer)
    }

    /// Writes a part of the URL, `false` when it holds a space or control character.
    private func writeVisible(_ bytes: UnsafeBufferPointer<UInt8>, to writer: inout ByteWriter) -> Bool {
        guard urlIsVisible || ByteText.isVisible(bytes) else { return false }
        writer.append(bytes)
        return true
    }

    /// The authority lowercased, without surrounding whitespace and the scheme's default port.
    private func writeAuthority(_ derived: ComponentIdentifier.Derived, to writer: inout ByteWriter) -> SigningError? {
        var start = 0
        var end = authority.count
        while start < end && (authority[start] == 0x20 || authority[start] == 0x09) { start += 1 }
        while end > start && (authority[end - 1] == 0x20 || authority[end - 1] == 0x09) { end -= 1 }
        let trimmed = UnsafeBufferPointer(rebasing: authority[start..<end])
        let value = UnsafeBufferPointer(
            rebasing: trimmed[0..<ByteText.lengthWithoutDefaultPort(trimmed, scheme: scheme)])
        guard !value.isEmpty else {
            return SigningError(
                .missingComponent, "\"\(derived.name)\" needs an authority, and the message has no Host")
        }
        guard urlIsVisible || ByteText.isVisible(value) else {
            return SigningError(
                .invalidComponent, "the value of \"\(derived.name)\" contains a space or control character")
        }
        writer.appendLowercased(value)
        return nil
    }
}
