import CCurl
import ServiceCore

extension CurlEasyHandle {
    /// Sets every option of `transfer` on this (freshly reset) handle.
    func prepare(for transfer: CurlTransfer, configuration: CurlTransport.Configuration) {
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        set(CURLOPT_URL, transfer.url)
        set(CURLOPT_PROTOCOLS_STR, "http,https")
        set(CURLOPT_NOSIGNAL, 1)
        set(CURLOPT_PROXY, "")  // an empty proxy also ignores http_proxy and friends in the environment
        set(CURLOPT_TCP_KEEPALIVE, 1)
        set(CURLOPT_PRIVATE, pointer: context)
        set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        swifty_curl_easy_setopt_write_callback(raw, CURLOPT_WRITEFUNCTION, CurlTransfer.writeCallback)
        set(CURLOPT_WRITEDATA, pointer: context)
        swifty_curl_easy_setopt_write_callback(raw, CURLOPT_HEADERFUNCTION, CurlTransfer.headerCallback)
        set(CURLOPT_HEADERDATA, pointer: context)
        set(CURLOPT_TIMEOUT_MS, transfer.timeoutMilliseconds)
        set(CURLOPT_CONNECTTIMEOUT_MS, min(configuration.connectTimeout.curlMilliseconds, transfer.timeoutMilliseconds))
        set(CURLOPT_MAXFILESIZE_LARGE, offset: Int64(configuration.maxResponseBodySize))
        switch configuration.httpVersion {
        case .http1_1: set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))
        case .http2OverTLS: set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
        }
        set(CURLOPT_PIPEWAIT, configuration.waitForMultiplexing ? 1 : 0)
        if case .follow(let maxCount) = configuration.redirects {
            set(CURLOPT_FOLLOWLOCATION, 1)
            set(CURLOPT_MAXREDIRS, max(0, maxCount))
            set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        }
        if let path = configuration.caBundlePath { set(CURLOPT_CAINFO, path) }
        if let agent = configuration.userAgent { set(CURLOPT_USERAGENT, agent) }
        swifty_curl_easy_setopt_slist(raw, CURLOPT_HTTPHEADER, transfer.headerList)

        if transfer.method == .head {
            set(CURLOPT_NOBODY, 1)
        } else if let body = transfer.body {
            set(CURLOPT_POST, 1)
            set(CURLOPT_POSTFIELDSIZE_LARGE, offset: Int64(body.count))
            swifty_curl_easy_setopt_read_callback(raw, CURLOPT_READFUNCTION, CurlTransfer.readCallback)
            set(CURLOPT_READDATA, pointer: context)
            swifty_curl_easy_setopt_seek_callback(raw, CURLOPT_SEEKFUNCTION, CurlTransfer.seekCallback)
            set(CURLOPT_SEEKDATA, pointer: context)
            if transfer.method != .post { set(CURLOPT_CUSTOMREQUEST, transfer.method.rawValue) }
        } else if transfer.method == .get {
            set(CURLOPT_HTTPGET, 1)
        } else {
            set(CURLOPT_CUSTOMREQUEST, transfer.method.rawValue)
        }
    }
}
