import CCurl

/// `curl_global_init`, run once per process before the first multi handle is made.
enum CurlGlobal {
    /// Whether libcurl loaded and its global initialisation succeeded (evaluated once, thread-safely).
    static let isInitialized: Bool = swifty_curl_global_init_default() == CURLE_OK

    /// Why ``isInitialized`` is false: the loader's reason, or the failed initialisation.
    static var problem: String {
        swifty_curl_load().map { String(cString: $0) } ?? "curl_global_init failed"
    }
}
