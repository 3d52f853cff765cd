// libmicrohttpd for Swift. `MHD_start_daemon` is a variadic C function that Swift cannot call;
// the inline wrappers below exist only for that reason.
#ifndef SWIFTY_CMICROHTTPD_SHIM_H
#define SWIFTY_CMICROHTTPD_SHIM_H
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <stdint.h>
#include <stdarg.h>
#include <microhttpd.h>
#endif
