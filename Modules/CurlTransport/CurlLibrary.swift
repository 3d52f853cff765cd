import CCurl
public import ServiceCore

/// libcurl itself, which this process loads on first use rather than at start (see `CCurl.h`):
/// a process that never makes a libcurl call never maps it and the thirty libraries it brings.
public enum CurlLibrary {
    /// Loads libcurl now, when it is not loaded yet; call it at start where libcurl will be
    /// needed, so that a machine without it fails then rather than at the first request.
    /// - Throws: `TransportError` with code `other` and the loader's reason when libcurl
    ///   (`libcurl.so.4`) cannot be loaded.
    public static func load() throws(TransportError) {
        if let reason = swifty_curl_load() {
            throw TransportError(.other, "libcurl could not be loaded: \(String(cString: reason))")
        }
    }
}
