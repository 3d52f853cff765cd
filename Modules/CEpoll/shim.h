// epoll and eventfd for the event loops, and the non-blocking socket calls of the clients that
// run on them (HTTP1Transport, RedisClient): Swift's Glibc module does not export `sys/epoll.h`
// or `sys/eventfd.h`, and cannot build or read a `struct sockaddr *` without rebinding.
#ifndef SWIFTY_CEPOLL_SHIM_H
#define SWIFTY_CEPOLL_SHIM_H
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <poll.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/// Starts a non-blocking, close-on-exec connection of `fd` to `address`; returns `fd` with
/// `*error` 0 (connected) or `EINPROGRESS`, or closes it and returns -1 with `*error` set.
static inline int swifty_finish_connect(int fd, const struct sockaddr *address, socklen_t length, int *error) {
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

/// Starts a non-blocking TCP connection (with `TCP_NODELAY`, close-on-exec) to the numeric
/// address `host` (IPv4 dotted or IPv6 without brackets) and `port`. Returns the socket with
/// `*error` 0 or `EINPROGRESS` (wait until writable, then read `SO_ERROR`), or -1 with `*error`
/// set (`EAFNOSUPPORT` when `host` is not numeric).
static inline int swifty_connect_tcp(const char *host, unsigned short port, int *error) {
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
    return swifty_finish_connect(fd, (struct sockaddr *)&address, length, error);
}

/// Starts a non-blocking connection to the unix socket at `path`; returns like
/// `swifty_connect_tcp` (`ENAMETOOLONG` when the path does not fit in `sun_path`).
static inline int swifty_connect_unix(const char *path, int *error) {
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
    return swifty_finish_connect(fd, (struct sockaddr *)&address, sizeof address, error);
}

/// The pending error of a socket whose non-blocking connect has finished (`SO_ERROR`): 0 when it
/// connected.
static inline int swifty_socket_error(int fd) {
    int value = 0;
    socklen_t length = sizeof value;
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &value, &length) != 0) return errno;
    return value;
}
#endif
