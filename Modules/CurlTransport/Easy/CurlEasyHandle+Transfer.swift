import CCurl
import HTTPTypes
import ServiceCore

extension CurlEasyHandle {
    /// Sets the options that stay the same for every transfer of one engine: its configuration's,
    /// the callbacks and the error buffer. Called once, when the handle is made.
    func setFixedOptions(_ configuration: CurlTransport.Configuration) {
        set(CURLOPT_PROTOCOLS_STR, "http,https")
        set(CURLOPT_NOSIGNAL, 1)
        set(CURLOPT_PROXY, "")  // an empty proxy also ignores http_proxy and friends in the environment
        // No proxy is used, so there is nothing to exempt: this only stops libcurl from reading
        // no_proxy and NO_PROXY from the environment on every transfer.
        set(CURLOPT_NOPROXY, "")
        set(CURLOPT_TCP_KEEPALIVE, 1)
        set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        swifty_curl_easy_setopt_write_callback(raw, CURLOPT_WRITEFUNCTION, CurlTransfer.writeCallback)
        swifty_curl_easy_setopt_write_callback(raw, CURLOPT_HEADERFUNCTION, CurlTransfer.headerCallback)
        // Read only when a body is sent; a transfer without one reads nothing (its `body` is nil).
        swifty_curl_easy_setopt_read_callback(raw, CURLOPT_READFUNCTION, CurlTransfer.readCallback)
        swifty_curl_easy_setopt_seek_callback(raw, CURLOPT_SEEKFUNCTION, CurlTransfer.seekCallback)
        set(CURLOPT_MAXFILESIZE_LARGE, offset: Int64(configuration.maxResponseBodySize))
        switch configuration.httpVersion {
        case .http1_1: set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))
        case .http2OverTLS: set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
        }
        if case .follow(let maxCount) = configuration.redirects {
            set(CURLOPT_FOLLOWLOCATION, 1)
            set(CURLOPT_MAXREDIRS, max(0, maxCount))
            set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        }
        if let path = configuration.caBundlePath { set(CURLOPT_CAINFO, path) }
        if let agent = configuration.userAgent { set(CURLOPT_USERAGENT, agent) }
    }

    /// Sets what is the transfer's own: its URL, context, timeouts, headers and method.
    ///
    /// libcurl keeps every option until it is changed, so the method options are all set each
    /// time: `CURLOPT_HTTPGET` (back to GET, no body expected, no upload), `CURLOPT_NOBODY`
    /// (HEAD) or `CURLOPT_POST` (a body from the read callback), `CURLOPT_CUSTOMREQUEST` back to
    /// none unless this method needs it, and `CURLOPT_POSTFIELDSIZE_LARGE` back to unknown (-1)
    /// when no body is sent.
    func prepare(for transfer: CurlTransfer) {
        errorBuffer[0] = 0
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        set(CURLOPT_URL, transfer.url)
        set(CURLOPT_PRIVATE, pointer: context)
        set(CURLOPT_WRITEDATA, pointer: context)
        set(CURLOPT_HEADERDATA, pointer: context)
        set(CURLOPT_READDATA, pointer: context)
        set(CURLOPT_SEEKDATA, pointer: context)
        set(CURLOPT_TIMEOUT_MS, transfer.timeoutMilliseconds)
        set(CURLOPT_CONNECTTIMEOUT_MS, min(connectTimeoutMilliseconds, transfer.timeoutMilliseconds))
        swifty_curl_easy_setopt_slist(raw, CURLOPT_HTTPHEADER, transfer.headerList)
        // Waiting to multiplex only makes sense where HTTP/2 can be negotiated: over TLS. libcurl
        // 7.88 also waits on a cleartext connection, which never multiplexes, so a burst of
        // requests to an `http` upstream would queue behind a few connections instead of
        // opening one each.
        let waits = waitsForMultiplexingOverTLS && Self.isHTTPS(transfer.url)
        if waits != pipeWaitSet {
            set(CURLOPT_PIPEWAIT, waits ? 1 : 0)
            pipeWaitSet = waits
        }

        var customMethod: String?
        if transfer.method == .head {
            set(CURLOPT_NOBODY, 1)
            set(CURLOPT_POSTFIELDSIZE_LARGE, offset: -1)
        } else if let body = transfer.body {
            set(CURLOPT_POST, 1)
            set(CURLOPT_POSTFIELDSIZE_LARGE, offset: Int64(body.count))
            if transfer.method != .post { customMethod = transfer.method.rawValue }
        } else {
            set(CURLOPT_HTTPGET, 1)
            set(CURLOPT_POSTFIELDSIZE_LARGE, offset: -1)
            if transfer.method != .get { customMethod = transfer.method.rawValue }
        }
        if let customMethod {
            set(CURLOPT_CUSTOMREQUEST, customMethod)
            hasCustomMethod = true
        } else if hasCustomMethod {
            swifty_curl_easy_setopt_string(raw, CURLOPT_CUSTOMREQUEST, nil)
            hasCustomMethod = false
        }
    }

    /// Whether a URL's scheme is `https` (in any case).
    static func isHTTPS(_ url: String) -> Bool {
        var url = url
        return url.withUTF8 { bytes in
            guard bytes.count >= 6 else { return false }
            let scheme = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[0..<6])
            return ASCIICaseInsensitive.equal(scheme, "https:")
        }
    }
}
