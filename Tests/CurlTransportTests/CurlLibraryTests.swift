import CCurl
import CurlTransport
import Testing

/// libcurl is loaded on first use, and every call reaches it through CCurl's functions.
struct CurlLibraryTests {
    @Test func libcurlLoadsAndAnswersThroughTheForwardingFunctions() throws {
        try CurlLibrary.load()
        #expect(swifty_curl_load() == nil)
        let version = String(cString: curl_version())
        #expect(version.hasPrefix("libcurl/"), "curl_version: \(version)")
        // A variadic option reaches libcurl with its value: an unknown option is refused as such.
        let handle = try #require(curl_easy_init())
        defer { curl_easy_cleanup(handle) }
        #expect(swifty_curl_easy_setopt_long(handle, CURLOPT_TIMEOUT_MS, 1500) == CURLE_OK)
        #expect(swifty_curl_easy_setopt_long(handle, CURLoption(rawValue: 99_999), 1) == CURLE_UNKNOWN_OPTION)
        #expect(String(cString: curl_easy_strerror(CURLE_UNKNOWN_OPTION)).contains("nknown"))
    }
}
