/// A server the corpus runs against, on 127.0.0.1.
public struct FramingTarget: Sendable {
    /// The server's port.
    public var port: Int
    /// The status of the handler's answer to the corpus's requests (which name paths such as `/`,
    /// `/p` or `/q`): 200 from an echo handler, 404 where no route has those paths, 401 where
    /// every request must be signed.
    public var servedStatus: Int

    /// A target on `port` whose handler answers the corpus's requests with `servedStatus`.
    public init(port: Int, servedStatus: Int) {
        self.port = port
        self.servedStatus = servedStatus
    }
}
