import CMicroHTTPD

/// The running daemon's C handle.
///
/// `@unchecked Sendable` because libmicrohttpd's daemon functions used here (`MHD_quiesce_daemon`,
/// `MHD_stop_daemon`, the info getters) are safe to call from any thread, and the handle is only
/// ever stopped once: ``HTTPServer`` takes it out of its locked lifecycle state before stopping it.
struct DaemonHandle: @unchecked Sendable {
    /// The `struct MHD_Daemon *`.
    let pointer: OpaquePointer
}
