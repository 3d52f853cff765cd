// libcurl for Swift, loaded on first use.
//
// libcurl is not linked: CurlLibrary.c defines the libcurl functions the process calls (its own
// and FoundationNetworking's), and the first call loads libcurl.so.4 with dlopen. A process that
// never calls libcurl, such as a daemon whose upstreams are all cleartext HTTP on its own
// HTTP/1.1 client, never maps libcurl and the thirty libraries it brings (GnuTLS, Kerberos,
// LDAP, SSH...), which is most of what starting such a process would cost.
//
// `curl_easy_setopt`, `curl_easy_getinfo` and `curl_multi_setopt` are variadic C functions that
// Swift cannot call; the typed inline wrappers below exist only for that reason. Each wrapper
// passes exactly the C type libcurl documents for the options it is used with.
#ifndef SWIFTY_CCURL_H
#define SWIFTY_CCURL_H

// The GCC type-checking macros replace curl_easy_setopt with a statement expression; the wrappers
// below are already typed, so they are not wanted.
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

/// Loads libcurl if it is not loaded yet (once per process; later calls return at once).
/// Returns NULL when libcurl is loaded, otherwise why it could not be (a static string).
const char *swifty_curl_load(void);

/// `curl_global_init(CURL_GLOBAL_DEFAULT)`: the flag is a macro built from other macros.
static inline CURLcode swifty_curl_global_init_default(void) {
    return curl_global_init(CURL_GLOBAL_DEFAULT);
}

/// `curl_easy_setopt` for options taking a `long`.
static inline CURLcode swifty_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

/// `curl_easy_setopt` for options taking a `curl_off_t`.
static inline CURLcode swifty_curl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/// `curl_easy_setopt` for options taking a C string (libcurl copies it).
static inline CURLcode swifty_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

/// `curl_easy_setopt` for options taking an untyped pointer (`CURLOPT_PRIVATE`, `*DATA`, `ERRORBUFFER`).
static inline CURLcode swifty_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

/// `curl_easy_setopt` for options taking a `struct curl_slist *` (`CURLOPT_HTTPHEADER`).
static inline CURLcode swifty_curl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

/// `curl_easy_setopt` for `CURLOPT_WRITEFUNCTION` and `CURLOPT_HEADERFUNCTION`.
static inline CURLcode swifty_curl_easy_setopt_write_callback(CURL *handle, CURLoption option,
                                                              curl_write_callback value) {
    return curl_easy_setopt(handle, option, value);
}

/// `curl_easy_setopt` for `CURLOPT_READFUNCTION`.
static inline CURLcode swifty_curl_easy_setopt_read_callback(CURL *handle, CURLoption option,
                                                             curl_read_callback value) {
    return curl_easy_setopt(handle, option, value);
}

/// `curl_easy_setopt` for `CURLOPT_SEEKFUNCTION`.
static inline CURLcode swifty_curl_easy_setopt_seek_callback(CURL *handle, CURLoption option,
                                                             curl_seek_callback value) {
    return curl_easy_setopt(handle, option, value);
}

/// `curl_easy_setopt` for `CURLOPT_CLOSESOCKETFUNCTION`.
static inline CURLcode swifty_curl_easy_setopt_closesocket_callback(CURL *handle, curl_closesocket_callback value) {
    return curl_easy_setopt(handle, CURLOPT_CLOSESOCKETFUNCTION, value);
}

/// `curl_easy_getinfo` for information returned as a `long`.
static inline CURLcode swifty_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// `curl_easy_getinfo` for information returned as a `curl_off_t`.
static inline CURLcode swifty_curl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// `curl_easy_getinfo` for information returned as a pointer (`CURLINFO_PRIVATE`).
static inline CURLcode swifty_curl_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

/// `curl_multi_setopt` for options taking a `long`.
static inline CURLMcode swifty_curl_multi_setopt_long(CURLM *handle, CURLMoption option, long value) {
    return curl_multi_setopt(handle, option, value);
}

/// `curl_multi_setopt` for options taking a pointer (`CURLMOPT_SOCKETDATA`, `CURLMOPT_TIMERDATA`).
static inline CURLMcode swifty_curl_multi_setopt_pointer(CURLM *handle, CURLMoption option, void *value) {
    return curl_multi_setopt(handle, option, value);
}

/// `curl_multi_setopt` for `CURLMOPT_SOCKETFUNCTION`.
static inline CURLMcode swifty_curl_multi_setopt_socket_callback(CURLM *handle, curl_socket_callback value) {
    return curl_multi_setopt(handle, CURLMOPT_SOCKETFUNCTION, value);
}

/// `curl_multi_setopt` for `CURLMOPT_TIMERFUNCTION`.
static inline CURLMcode swifty_curl_multi_setopt_timer_callback(CURLM *handle, curl_multi_timer_callback value) {
    return curl_multi_setopt(handle, CURLMOPT_TIMERFUNCTION, value);
}

#endif
