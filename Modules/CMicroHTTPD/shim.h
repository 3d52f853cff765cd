// libmicrohttpd for Swift. Swift cannot call C variadic functions (`MHD_start_daemon`,
// `MHD_get_connection_info`, `MHD_get_daemon_info`); the inline wrappers below exist only for
// that reason, plus one non-variadic helper (`swifty_mhd_unescape_none`) that the daemon takes
// as a C function pointer. `sys/epoll.h` and `sys/eventfd.h` are included because the server's
// network threads drive the daemons with epoll and Swift's Glibc module does not export them.
#ifndef SWIFTY_CMICROHTTPD_SHIM_H
#define SWIFTY_CMICROHTTPD_SHIM_H
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <stdint.h>
#include <stdarg.h>
#include <string.h>
#include <microhttpd.h>

/// The URI-log callback: called once per request with the raw request-target; its result becomes
/// the request's initial `*con_cls`.
typedef void *(*swifty_mhd_uri_logger)(void *cls, const char *uri, struct MHD_Connection *connection);

/// Everything `swifty_mhd_start` passes to `MHD_start_daemon`. Zero means "leave MHD's default" for
/// the numeric limits, except `thread_pool_size` where 0 or 1 means one internal polling thread.
typedef struct swifty_mhd_settings {
    unsigned int flags;
    /// The address to bind, used when `listen_fd` is negative.
    const struct sockaddr *address;
    /// A bound, listening socket to accept on instead of binding `address`; -1 for none.
    int listen_fd;
    MHD_AccessHandlerCallback access_handler;
    void *access_cls;
    MHD_RequestCompletedCallback completed;
    void *completed_cls;
    swifty_mhd_uri_logger uri_logger;
    void *uri_logger_cls;
    size_t memory_limit;
    unsigned int connection_limit;
    unsigned int per_ip_connection_limit;
    unsigned int connection_timeout_seconds;
    unsigned int thread_pool_size;
    unsigned int listen_backlog;
    int raw_unescape;
} swifty_mhd_settings;

/// Leaves URLs and arguments as received: the Swift side works on the raw request-target.
static inline size_t swifty_mhd_unescape_none(void *cls, struct MHD_Connection *connection, char *s) {
    (void)cls;
    (void)connection;
    return strlen(s);
}

/// Starts a daemon with the options in `settings` (non-variadic wrapper of `MHD_start_daemon`).
static inline struct MHD_Daemon *swifty_mhd_start(const swifty_mhd_settings *settings) {
    struct MHD_OptionItem options[16];
    unsigned int count = 0;
    if (settings->listen_fd >= 0) {
        options[count++] = (struct MHD_OptionItem){MHD_OPTION_LISTEN_SOCKET, settings->listen_fd, NULL};
    } else {
        options[count++] = (struct MHD_OptionItem){MHD_OPTION_SOCK_ADDR, 0, (void *)settings->address};
    }
    if (settings->completed != NULL) {
        options[count++] = (struct MHD_OptionItem){
            MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)settings->completed, settings->completed_cls};
    }
    if (settings->uri_logger != NULL) {
        options[count++] = (struct MHD_OptionItem){
            MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)settings->uri_logger, settings->uri_logger_cls};
    }
    if (settings->raw_unescape) {
        options[count++] = (struct MHD_OptionItem){
            MHD_OPTION_UNESCAPE_CALLBACK, (intptr_t)&swifty_mhd_unescape_none, NULL};
    }
    if (settings->memory_limit > 0) {
        options[count++] = (struct MHD_OptionItem){
            MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)settings->memory_limit, NULL};
    }
    if (settings->connection_limit > 0) {
        options[count++] = (struct MHD_OptionItem){
            MHD_OPTION_CONNECTION_LIMIT, (intptr_t)settings->connection_limit, NULL};
    }
    if (settings->per_ip_connection_limit > 0) {
        options[count++] = (struct MHD_OptionItem){
            MHD_OPTION_PER_IP_CONNECTION_LIMIT, (intptr_t)settings->per_ip_connection_limit, NULL};
    }
    options[count++] = (struct MHD_OptionItem){
        MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)settings->connection_timeout_seconds, NULL};
    if (settings->thread_pool_size > 1) {
        options[count++] = (struct MHD_OptionItem){
            MHD_OPTION_THREAD_POOL_SIZE, (intptr_t)settings->thread_pool_size, NULL};
    }
    if (settings->listen_backlog > 0) {
        options[count++] = (struct MHD_OptionItem){
            MHD_OPTION_LISTEN_BACKLOG_SIZE, (intptr_t)settings->listen_backlog, NULL};
    }
    options[count] = (struct MHD_OptionItem){MHD_OPTION_END, 0, NULL};
    return MHD_start_daemon(
        settings->flags, 0, NULL, NULL, settings->access_handler, settings->access_cls,
        MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// The port the daemon is bound to, or 0 when unknown.
static inline uint16_t swifty_mhd_bind_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// The daemon's epoll descriptor (external polling with `MHD_USE_EPOLL`), or -1.
static inline int swifty_mhd_epoll_fd(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_EPOLL_FD);
    return info == NULL ? -1 : info->epoll_fd;
}

/// The daemon's listen socket, or -1 when it has none.
static inline int swifty_mhd_listen_fd(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_LISTEN_FD);
    return info == NULL ? -1 : info->listen_fd;
}

/// Copies the client's IP address of `connection` into `address` (4 bytes for IPv4, 16 for IPv6,
/// network order) and returns its family (AF_INET or AF_INET6), or 0 when it is unknown. The server
/// keeps these bytes and formats them only when a handler asks (MHD_get_connection_info is variadic).
static inline int swifty_mhd_client_address_bytes(struct MHD_Connection *connection, uint8_t address[16]) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) {
        return 0;
    }
    const struct sockaddr *client = info->client_addr;
    if (client->sa_family == AF_INET) {
        memcpy(address, &((const struct sockaddr_in *)(const void *)client)->sin_addr, 4);
        return AF_INET;
    }
    if (client->sa_family == AF_INET6) {
        memcpy(address, &((const struct sockaddr_in6 *)(const void *)client)->sin6_addr, 16);
        return AF_INET6;
    }
    return 0;
}
#endif
