import CCurl

/// `curl_global_init`, run once per process before the first multi handle is made.
enum CurlGlobal {
    /// Whether libcurl's global initialisation succeeded (evaluated once, thread-safely).
    static let isInitialized: Bool = swifty_curl_global_init_default() == CURLE_OK
}
