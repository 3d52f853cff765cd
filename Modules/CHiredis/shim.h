// hiredis (Debian's libhiredis-dev 0.14): RedisClient uses its reply reader only (redisReader,
// redisReaderFeed, redisReaderGetReply, freeReplyObject) over sockets of its own on the event
// loops. The socket and name lookup calls live here because Swift cannot build or read a
// `struct sockaddr *` without rebinding, and `redisReaderGetError` is a macro.
#ifndef SWIFTY_CHIREDIS_SHIM_H
#define SWIFTY_CHIREDIS_SHIM_H

#include <hiredis/hiredis.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netdb.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/// Starts a non-blocking, close-on-exec connection of `fd` to `address`; returns `fd` with
/// `*error` 0 (connected) or `EINPROGRESS`, or closes it and returns -1 with `*error` set.
static inline int swifty_redis_finish_connect(int fd, const struct sockaddr *address, socklen_t length, int *error) {
    if (connect(fd, address, length) == 0) {
        *error = 0;
        return fd;
    }
    if (errno == EINPROGRESS || errno == EAGAIN) {
        *error = EINPROGRESS;
        return fd;
    }
    *error = errno;
    close(fd);
    return -1;
}

/// Starts a non-blocking TCP connection (with `TCP_NODELAY`) to the numeric address `host`
/// (IPv4 dotted or IPv6 without brackets) and `port`. Returns the socket with `*error` 0 or
/// `EINPROGRESS` (wait until writable, then read `SO_ERROR`), or -1 with `*error` set
/// (`EAFNOSUPPORT` when `host` is not numeric).
static inline int swifty_redis_connect_tcp(const char *host, unsigned short port, int *error) {
    struct sockaddr_storage address;
    socklen_t length;
    memset(&address, 0, sizeof address);
    struct sockaddr_in *v4 = (struct sockaddr_in *)&address;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&address;
    if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons(port);
        length = sizeof *v4;
    } else if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(port);
        length = sizeof *v6;
    } else {
        *error = EAFNOSUPPORT;
        return -1;
    }
    int fd = socket(address.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        *error = errno;
        return -1;
    }
    int on = 1;
    (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    return swifty_redis_finish_connect(fd, (struct sockaddr *)&address, length, error);
}

/// Starts a non-blocking connection to the unix socket at `path`; returns like
/// `swifty_redis_connect_tcp` (`ENAMETOOLONG` when the path does not fit in `sun_path`).
static inline int swifty_redis_connect_unix(const char *path, int *error) {
    struct sockaddr_un address;
    memset(&address, 0, sizeof address);
    address.sun_family = AF_UNIX;
    size_t length = strlen(path);
    if (length == 0 || length >= sizeof address.sun_path) {
        *error = ENAMETOOLONG;
        return -1;
    }
    memcpy(address.sun_path, path, length);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        *error = errno;
        return -1;
    }
    return swifty_redis_finish_connect(fd, (struct sockaddr *)&address, sizeof address, error);
}

/// The pending error of a socket whose non-blocking connect has finished (`SO_ERROR`): 0 when it
/// connected.
static inline int swifty_redis_socket_error(int fd) {
    int value = 0;
    socklen_t length = sizeof value;
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &value, &length) != 0) return errno;
    return value;
}

/// Resolves `host` with `getaddrinfo` (TCP; an IPv4 address if it has one, else IPv6) and writes
/// the first address as numeric text into `out` (at least `INET6_ADDRSTRLEN` bytes). Returns 0,
/// or `getaddrinfo`'s error (`gai_strerror` describes it). Blocks: call it off any event loop.
static inline int swifty_redis_resolve(const char *host, char *out, socklen_t length) {
    int families[2] = {AF_INET, AF_INET6};
    int status = EAI_NONAME;
    for (int index = 0; index < 2; index++) {
        struct addrinfo hints;
        memset(&hints, 0, sizeof hints);
        hints.ai_family = families[index];
        hints.ai_socktype = SOCK_STREAM;
        struct addrinfo *found = NULL;
        status = getaddrinfo(host, NULL, &hints, &found);
        if (status != 0) continue;
        const void *address = NULL;
        if (found->ai_family == AF_INET) address = &((struct sockaddr_in *)found->ai_addr)->sin_addr;
        if (found->ai_family == AF_INET6) address = &((struct sockaddr_in6 *)found->ai_addr)->sin6_addr;
        int failed = address == NULL || inet_ntop(found->ai_family, address, out, length) == NULL;
        freeaddrinfo(found);
        return failed ? EAI_FAMILY : 0;
    }
    return status;
}

/// The reader's error text (`redisReaderGetError`, a macro).
static inline const char *swifty_redis_reader_error(const redisReader *reader) {
    return reader->errstr;
}

#endif
