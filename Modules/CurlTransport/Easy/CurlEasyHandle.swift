import CCurl

/// One libcurl easy handle and its error buffer, reused across transfers.
///
/// The options that depend only on the engine's configuration are set once, when the handle is
/// made (see ``init(configuration:socketCloser:)``); each transfer then sets only what is its own (see
/// ``prepare(for:)``). Between transfers an idle handle still points at the last
/// transfer's context and header list; libcurl reads those only while the handle is in a multi
/// handle, and the next ``prepare(for:)`` replaces them before it is added again.
///
/// Owned and touched by the thread that drives its multi handle only (``CurlMultiLoop``'s own
/// thread, or the event loop of a ``CurlLoopDriver``).
final class CurlEasyHandle {
    /// The `CURL *`.
    let raw: UnsafeMutableRawPointer
    /// `CURLOPT_ERRORBUFFER`: libcurl writes a detailed message here when a transfer fails.
    let errorBuffer: UnsafeMutablePointer<CChar>
    /// The configuration's connect timeout; a transfer with a shorter timeout uses its own.
    let connectTimeoutMilliseconds: Int
    /// Whether `CURLOPT_CUSTOMREQUEST` holds a method from an earlier transfer.
    var hasCustomMethod = false
    /// Whether transfers to `https` URLs wait to multiplex (`waitForMultiplexing` with HTTP/2 over TLS).
    let waitsForMultiplexingOverTLS: Bool
    /// Whether `CURLOPT_PIPEWAIT` is on (libcurl's default is off).
    var pipeWaitSet = false

    /// Creates a handle with the configuration's fixed options set, or returns `nil` when libcurl
    /// cannot allocate one.
    /// - Parameters:
    ///   - configuration: The engine's configuration.
    ///   - socketCloser: Closes the sockets of this handle's connections (`CURLOPT_CLOSESOCKETFUNCTION`
    ///     and its data), or `nil` for libcurl's own `close`.
    init?(configuration: CurlTransport.Configuration, socketCloser: CurlSocketCloser? = nil) {
        guard let handle = curl_easy_init() else { return nil }
        raw = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        connectTimeoutMilliseconds = configuration.connectTimeout.curlMilliseconds
        waitsForMultiplexingOverTLS = configuration.waitForMultiplexing && configuration.httpVersion == .http2OverTLS
        setFixedOptions(configuration)
        if let socketCloser {
            swifty_curl_easy_setopt_closesocket_callback(raw, socketCloser.callback)
            set(CURLOPT_CLOSESOCKETDATA, pointer: socketCloser.context)
        }
    }

    deinit {
        curl_easy_cleanup(raw)
        errorBuffer.deallocate()
    }

    /// The message libcurl left in the error buffer, or `nil` when it is empty.
    var errorMessage: String? {
        errorBuffer[0] == 0 ? nil : String(cString: errorBuffer)
    }

    /// Sets a `long` option.
    @discardableResult
    func set(_ option: CURLoption, _ value: Int) -> CURLcode {
        swifty_curl_easy_setopt_long(raw, option, value)
    }

    /// Sets a `curl_off_t` option.
    @discardableResult
    func set(_ option: CURLoption, offset value: Int64) -> CURLcode {
        swifty_curl_easy_setopt_off_t(raw, option, curl_off_t(value))
    }

    /// Sets a string option (libcurl copies the string).
    @discardableResult
    func set(_ option: CURLoption, _ value: String) -> CURLcode {
        value.withCString { swifty_curl_easy_setopt_string(raw, option, $0) }
    }

    /// Sets a pointer option.
    @discardableResult
    func set(_ option: CURLoption, pointer value: UnsafeMutableRawPointer?) -> CURLcode {
        swifty_curl_easy_setopt_pointer(raw, option, value)
    }
}
