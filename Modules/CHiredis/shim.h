// hiredis (Debian's libhiredis-dev 0.14): RedisClient uses its reply reader only (redisReader,
// redisReaderFeed, redisReaderGetReply, freeReplyObject) over sockets of its own on the event
// loops (connected through CEpoll's socket calls). The name lookup lives here because Swift
// cannot read a `struct sockaddr *` without rebinding, and `redisReaderGetError` is a macro.
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
