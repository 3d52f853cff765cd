// epoll and eventfd for the event loops: Swift's Glibc module does not export `sys/epoll.h` or
// `sys/eventfd.h`.
#ifndef SWIFTY_CEPOLL_SHIM_H
#define SWIFTY_CEPOLL_SHIM_H
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <poll.h>
#endif
