// http-parser (the parser Node.js used for a decade, Debian's libhttp-parser-dev), wrapped by HTTP1Parsing for the
// HTTP/1.1 server and transport, and the socket calls Swift cannot make directly: `connect` takes a
// `struct sockaddr *` that Swift would have to build by rebinding, and the socket options are
// macros.
#ifndef SWIFTY_CHTTPPARSER_SHIM_H
#define SWIFTY_CHTTPPARSER_SHIM_H

#include <http_parser.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/// Resolves `host` with `getaddrinfo` (TCP, addresses of a family the machine has configured)
/// and writes its first address as numeric text into `out` (at least `INET6_ADDRSTRLEN` bytes).
/// Returns 0, or `getaddrinfo`'s error (`gai_strerror` describes it). Blocks: call it off any
/// event loop.
static inline int swifty_http1_resolve(const char *host, char *out, socklen_t length) {
    struct addrinfo hints;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_ADDRCONFIG;
    struct addrinfo *found = NULL;
    int status = getaddrinfo(host, NULL, &hints, &found);
    if (status != 0) return status;
    const void *address = NULL;
    if (found->ai_family == AF_INET) address = &((struct sockaddr_in *)found->ai_addr)->sin_addr;
    if (found->ai_family == AF_INET6) address = &((struct sockaddr_in6 *)found->ai_addr)->sin6_addr;
    int failed = address == NULL || inet_ntop(found->ai_family, address, out, length) == NULL;
    freeaddrinfo(found);
    return failed ? EAI_FAMILY : 0;
}

// glibc declares accept4 only under _GNU_SOURCE, which a module header cannot count on.
extern int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);

/// Accepts a connection from the listening socket `fd` as non-blocking and close-on-exec, with
/// `TCP_NODELAY`; the peer's address goes to `address`. Returns the socket, or -1 with `errno` set.
static inline int swifty_http1_accept(int fd, struct sockaddr_storage *address) {
    socklen_t length = sizeof *address;
    int client = accept4(fd, (struct sockaddr *)address, &length, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (client >= 0) {
        int on = 1;
        (void)setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    }
    return client;
}

/// The parser's error number (`HTTP_PARSER_ERRNO`, a macro).
static inline enum http_errno swifty_http1_parser_errno(const http_parser *parser) {
    return (enum http_errno)parser->http_errno;
}

#endif
