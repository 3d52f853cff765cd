import CCurl

/// Who closes the sockets of an engine's connections: a `CURLOPT_CLOSESOCKETFUNCTION` and the
/// pointer it gets, set on every easy handle the engine makes.
///
/// libcurl copies both into each connection it opens, so a socket is closed through them even
/// when the connection outlives the transfer (the multi handle's cache, `curl_multi_cleanup`).
struct CurlSocketCloser {
    /// The callback; it must close the socket.
    let callback: curl_closesocket_callback
    /// Its first argument.
    let context: UnsafeMutableRawPointer
}
