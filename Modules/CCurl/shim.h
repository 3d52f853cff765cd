// libcurl for Swift. `curl_easy_setopt`, `curl_easy_getinfo` and `curl_multi_setopt` are variadic
// C functions that Swift cannot call; the typed inline wrappers below exist only for that reason.
#ifndef SWIFTY_CCURL_SHIM_H
#define SWIFTY_CCURL_SHIM_H
#include <curl/curl.h>
#endif
