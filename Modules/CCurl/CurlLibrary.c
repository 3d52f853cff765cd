// The libcurl functions this process calls, each forwarding to libcurl.so.4, which the first
// call loads (see CCurl.h). Without libcurl on the machine every function fails the way libcurl
// reports failure (an error code, or NULL where it returns a handle), and swifty_curl_load says why.
#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>

// The variadic setters and getters pass their one argument on as a pointer-sized integer: every
// value libcurl takes there is a long, a curl_off_t or a pointer, which the LP64 calling
// conventions of Linux pass alike (one integer register or stack slot).
_Static_assert(sizeof(long) == sizeof(void *) && sizeof(curl_off_t) == sizeof(void *),
               "libcurl's variadic arguments are forwarded as one pointer-sized value");

static struct {
    CURLcode (*global_init)(long);
    char *(*version)(void);
    curl_version_info_data *(*version_info)(CURLversion);
    void (*free)(void *);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    CURLcode (*easy_pause)(CURL *, int);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_assign)(CURLM *, curl_socket_t, void *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd[], unsigned int, int, int *);
    CURLMcode (*multi_setopt)(CURLM *, CURLMoption, ...);
    CURLMcode (*multi_socket_action)(CURLM *, curl_socket_t, int, int *);
    const char *(*multi_strerror)(CURLMcode);
    CURLMcode (*multi_wakeup)(CURLM *);
    CURLU *(*url)(void);
    CURLUcode (*url_get)(CURLU *, CURLUPart, char **, unsigned int);
    CURLUcode (*url_set)(CURLU *, CURLUPart, const char *, unsigned int);
} real;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int is_loaded;
static char load_error[512];
static const char not_loaded[] = "libcurl could not be loaded";

static int resolve(void *library, void **slot, const char *name) {
    *slot = dlsym(library, name);
    if (*slot) return 1;
    snprintf(load_error, sizeof load_error, "libcurl.so.4 has no %s", name);
    return 0;
}

static void load_library(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error, sizeof load_error, "%s", dlerror());
        return;
    }
// Each field is named after its function without the `curl_` prefix.
#define RESOLVE(field) \
    if (!resolve(library, (void **)&real.field, "curl_" #field)) return;
    RESOLVE(global_init)
    RESOLVE(version)
    RESOLVE(version_info)
    RESOLVE(free)
    RESOLVE(easy_init)
    RESOLVE(easy_cleanup)
    RESOLVE(easy_setopt)
    RESOLVE(easy_getinfo)
    RESOLVE(easy_pause)
    RESOLVE(easy_strerror)
    RESOLVE(slist_append)
    RESOLVE(slist_free_all)
    RESOLVE(multi_init)
    RESOLVE(multi_cleanup)
    RESOLVE(multi_add_handle)
    RESOLVE(multi_remove_handle)
    RESOLVE(multi_assign)
    RESOLVE(multi_info_read)
    RESOLVE(multi_perform)
    RESOLVE(multi_poll)
    RESOLVE(multi_setopt)
    RESOLVE(multi_socket_action)
    RESOLVE(multi_strerror)
    RESOLVE(multi_wakeup)
    RESOLVE(url)
    RESOLVE(url_get)
    RESOLVE(url_set)
#undef RESOLVE
    is_loaded = 1;
}

static int loaded(void) {
    pthread_once(&load_once, load_library);
    return is_loaded;
}

const char *swifty_curl_load(void) { return loaded() ? NULL : load_error; }

CURLcode curl_global_init(long flags) { return loaded() ? real.global_init(flags) : CURLE_FAILED_INIT; }

char *curl_version(void) { return loaded() ? real.version() : (char *)not_loaded; }

curl_version_info_data *curl_version_info(CURLversion age) { return loaded() ? real.version_info(age) : NULL; }

void curl_free(void *pointer) {
    if (loaded()) real.free(pointer);
}

CURL *curl_easy_init(void) { return loaded() ? real.easy_init() : NULL; }

void curl_easy_cleanup(CURL *handle) {
    if (loaded()) real.easy_cleanup(handle);
}

CURLcode curl_easy_setopt(CURL *handle, CURLoption option, ...) {
    va_list arguments;
    va_start(arguments, option);
    void *value = va_arg(arguments, void *);
    va_end(arguments);
    return loaded() ? real.easy_setopt(handle, option, value) : CURLE_FAILED_INIT;
}

CURLcode curl_easy_getinfo(CURL *handle, CURLINFO info, ...) {
    va_list arguments;
    va_start(arguments, info);
    void *value = va_arg(arguments, void *);
    va_end(arguments);
    return loaded() ? real.easy_getinfo(handle, info, value) : CURLE_FAILED_INIT;
}

CURLcode curl_easy_pause(CURL *handle, int bitmask) {
    return loaded() ? real.easy_pause(handle, bitmask) : CURLE_FAILED_INIT;
}

const char *curl_easy_strerror(CURLcode code) { return loaded() ? real.easy_strerror(code) : not_loaded; }

struct curl_slist *curl_slist_append(struct curl_slist *list, const char *data) {
    return loaded() ? real.slist_append(list, data) : NULL;
}

void curl_slist_free_all(struct curl_slist *list) {
    if (loaded()) real.slist_free_all(list);
}

CURLM *curl_multi_init(void) { return loaded() ? real.multi_init() : NULL; }

CURLMcode curl_multi_cleanup(CURLM *multi) { return loaded() ? real.multi_cleanup(multi) : CURLM_BAD_HANDLE; }

CURLMcode curl_multi_add_handle(CURLM *multi, CURL *handle) {
    return loaded() ? real.multi_add_handle(multi, handle) : CURLM_BAD_HANDLE;
}

CURLMcode curl_multi_remove_handle(CURLM *multi, CURL *handle) {
    return loaded() ? real.multi_remove_handle(multi, handle) : CURLM_BAD_HANDLE;
}

CURLMcode curl_multi_assign(CURLM *multi, curl_socket_t socket, void *pointer) {
    return loaded() ? real.multi_assign(multi, socket, pointer) : CURLM_BAD_HANDLE;
}

CURLMsg *curl_multi_info_read(CURLM *multi, int *queued) {
    return loaded() ? real.multi_info_read(multi, queued) : NULL;
}

CURLMcode curl_multi_perform(CURLM *multi, int *running) {
    return loaded() ? real.multi_perform(multi, running) : CURLM_BAD_HANDLE;
}

CURLMcode curl_multi_poll(CURLM *multi, struct curl_waitfd extra[], unsigned int count, int timeout, int *ready) {
    return loaded() ? real.multi_poll(multi, extra, count, timeout, ready) : CURLM_BAD_HANDLE;
}

CURLMcode curl_multi_setopt(CURLM *multi, CURLMoption option, ...) {
    va_list arguments;
    va_start(arguments, option);
    void *value = va_arg(arguments, void *);
    va_end(arguments);
    return loaded() ? real.multi_setopt(multi, option, value) : CURLM_BAD_HANDLE;
}

CURLMcode curl_multi_socket_action(CURLM *multi, curl_socket_t socket, int events, int *running) {
    return loaded() ? real.multi_socket_action(multi, socket, events, running) : CURLM_BAD_HANDLE;
}

const char *curl_multi_strerror(CURLMcode code) { return loaded() ? real.multi_strerror(code) : not_loaded; }

CURLMcode curl_multi_wakeup(CURLM *multi) { return loaded() ? real.multi_wakeup(multi) : CURLM_BAD_HANDLE; }

CURLU *curl_url(void) { return loaded() ? real.url() : NULL; }

CURLUcode curl_url_get(CURLU *url, CURLUPart part, char **text, unsigned int flags) {
    return loaded() ? real.url_get(url, part, text, flags) : CURLUE_BAD_HANDLE;
}

CURLUcode curl_url_set(CURLU *url, CURLUPart part, const char *text, unsigned int flags) {
    return loaded() ? real.url_set(url, part, text, flags) : CURLUE_BAD_HANDLE;
}
