import CCurl
import ServiceCore

extension CurlTransfer {
    /// The `TransportError` for a transfer libcurl finished with `code`.
    ///
    /// The one place where libcurl's codes become ours, so every failure has a code callers can
    /// act on and a message with what libcurl said.
    func error(for code: CURLcode, detail: String?) -> TransportError {
        let reason = "\(detail ?? String(cString: curl_easy_strerror(code))) (curl code \(code.rawValue))"
        if bodyTooLarge || code == CURLE_FILESIZE_EXCEEDED {
            return TransportError(
                .responseTooLarge,
                "the response to \(summary) is larger than the limit of \(maxResponseBodySize) bytes"
            )
        }
        if outOfMemory {
            return TransportError(.other, "out of memory receiving the response to \(summary)")
        }
        let mapped: TransportError.Code
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            return TransportError(
                .timedOut,
                "\(summary) did not complete within \(timeoutMilliseconds) ms: \(reason)"
            )
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY,
            CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE:
            mapped = .connectionFailed
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_HTTP2,
            CURLE_HTTP2_STREAM, CURLE_WEIRD_SERVER_REPLY:
            mapped = .connectionClosed
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL, CURLE_BAD_FUNCTION_ARGUMENT:
            mapped = .invalidRequest
        case CURLE_ABORTED_BY_CALLBACK:
            mapped = .cancelled
        default:
            mapped = .other
        }
        return TransportError(mapped, "\(summary) failed: \(reason)")
    }
}
