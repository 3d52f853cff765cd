/// One request framing of the corpus: the bytes a client sends, the answers it must get (in
/// order; interim 1xx answers listed too) and the connection's state after the last one.
public struct FramingCase: Sendable, CustomStringConvertible {
    /// What the connection must be after the answers.
    public enum After: Sendable {
        /// Still open: a further request is served.
        case open
        /// Closed by the server.
        case closed
    }

    /// A short unique name.
    public var name: String
    /// What the client sends.
    public var bytes: [UInt8]
    /// The answers, in order.
    public var answers: [FramingAnswer]
    /// The connection's state after the answers.
    public var after: After
    /// Whether the client shuts its write side after sending (an early close).
    public var halfClose = false

    /// The name.
    public var description: String { name }

    init(_ name: String, _ text: String, _ answers: [FramingAnswer], _ after: After, halfClose: Bool = false) {
        self.init(name, Array(text.utf8), answers, after, halfClose: halfClose)
    }

    init(_ name: String, _ bytes: [UInt8], _ answers: [FramingAnswer], _ after: After, halfClose: Bool = false) {
        self.name = name
        self.bytes = bytes
        self.answers = answers
        self.after = after
        self.halfClose = halfClose
    }
}
