import CCurl
import HTTPTypes
import ServiceCore
import Synchronization

/// One libcurl multi handle and the transfers on it: starting, stopping and finishing them.
///
/// Single-threaded: whoever drives it (``CurlMultiLoop``'s own thread, or ``CurlLoopDriver`` on a
/// server's event loop) calls it from one thread only, as libcurl requires of a multi handle and
/// its easy handles.
final class CurlMultiEngine {
    /// The `CURLM *`, or `nil` when libcurl could not create one.
    let multi: UnsafeMutableRawPointer?
    private let configuration: CurlTransport.Configuration
    /// The transfers in libcurl; each knows its place (``CurlTransfer/runningIndex``), so one is
    /// removed by moving the last into its slot, without hashing.
    private var running: [CurlTransfer] = []
    private var idleHandles: [CurlEasyHandle] = []
    /// Set on every easy handle made from now on (before the first transfer, by its driver).
    var socketCloser: CurlSocketCloser?

    /// Creates the multi handle with the configuration's connection limits.
    init(configuration: CurlTransport.Configuration) {
        self.configuration = configuration
        multi = CurlGlobal.isInitialized ? curl_multi_init() : nil
        guard let multi else { return }
        swifty_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, max(1, configuration.maxCachedConnections))
        swifty_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, max(0, configuration.maxConnectionsPerHost))
        swifty_curl_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, max(0, configuration.maxTotalConnections))
        swifty_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX)
    }

    /// Whether no transfer is in flight.
    var isIdle: Bool { running.isEmpty }

    /// Adds a transfer to the multi handle, or finishes it at once (cancelled, or no handle).
    func start(_ transfer: CurlTransfer) {
        guard transfer.state == .queued else { return }
        if transfer.cancelRequested.load(ordering: .acquiring) {
            complete(transfer, with: .failure(TransportError(.cancelled, "\(transfer.summary) was cancelled")))
            return
        }
        guard let multi,
            let easy = idleHandles.popLast()
                ?? CurlEasyHandle(configuration: configuration, socketCloser: socketCloser)
        else {
            complete(transfer, with: .failure(TransportError(.other, "libcurl could not create a handle")))
            return
        }
        easy.prepare(for: transfer)
        let code = curl_multi_add_handle(multi, easy.raw)
        guard code == CURLM_OK else {
            recycle(easy)
            let reason = String(cString: curl_multi_strerror(code))
            complete(transfer, with: .failure(TransportError(.other, "\(transfer.summary) not started: \(reason)")))
            return
        }
        transfer.easy = easy
        transfer.state = .running
        transfer.runningIndex = running.count
        running.append(transfer)
    }

    /// Stops a running transfer and resumes its caller with `cancelled`.
    func cancel(_ transfer: CurlTransfer) {
        guard transfer.state == .running else { return }
        complete(transfer, with: .failure(TransportError(.cancelled, "\(transfer.summary) was cancelled")))
    }

    /// Cancels every running transfer whose caller has asked to cancel it: a backstop for the
    /// cancel command, so a cancellation is honoured on the driving thread's next pass whatever
    /// the order in which the thread saw the request, the command and the flag.
    func cancelRequestedTransfers() {
        var index = running.count - 1
        // Backwards: `complete` moves the last transfer into the slot it frees, and that one has
        // been looked at already.
        while index >= 0 {
            let transfer = running[index]
            if transfer.cancelRequested.load(ordering: .acquiring) { cancel(transfer) }
            index -= 1
        }
    }

    /// Finishes every transfer libcurl reports done.
    func collectFinished() {
        guard let multi else { return }
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle else { continue }
            var context: UnsafeMutableRawPointer?
            swifty_curl_easy_getinfo_pointer(handle, CURLINFO_PRIVATE, &context)
            guard let context else { continue }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            guard let easy = transfer.easy else { continue }
            let code = message.pointee.data.result
            if code == CURLE_OK {
                var status = 0
                swifty_curl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
                if status != 0 { transfer.status = status }
                complete(transfer, with: .success(transfer.takeResponse()))
            } else {
                complete(transfer, with: .failure(transfer.error(for: code, detail: easy.errorMessage)))
            }
        }
    }

    /// Fails every transfer in flight with `shutDown`.
    func failRunning() {
        let transfers = running
        for transfer in transfers {
            complete(transfer, with: .failure(Self.shutDownError(transfer, inFlight: true)))
        }
    }

    /// Fails the transfer in flight (or not yet sent) with `shutDown`.
    func failShutDown(_ transfer: CurlTransfer, inFlight: Bool) {
        complete(transfer, with: .failure(Self.shutDownError(transfer, inFlight: inFlight)))
    }

    /// Fails what is left and cleans every handle up; the engine is unusable afterwards.
    func tearDown() {
        failRunning()
        idleHandles.removeAll()
        if let multi { curl_multi_cleanup(multi) }
    }

    private static func shutDownError(_ transfer: CurlTransfer, inFlight: Bool) -> TransportError {
        TransportError(
            .shutDown,
            inFlight
                ? "the transport was shut down while \(transfer.summary) was in flight"
                : "the transport was shut down before \(transfer.summary) was sent"
        )
    }

    /// Detaches the transfer from libcurl, returns its handle to the pool, and resumes its caller.
    /// The state check makes the resume happen exactly once.
    func complete(_ transfer: CurlTransfer, with result: Result<HTTPResponse, TransportError>) {
        guard transfer.state != .finished else { return }
        if let easy = transfer.easy, let multi {
            curl_multi_remove_handle(multi, easy.raw)
            transfer.easy = nil
            recycle(easy)
        }
        if transfer.state == .running {
            let last = running.removeLast()
            if last !== transfer {
                running[transfer.runningIndex] = last
                last.runningIndex = transfer.runningIndex
            }
        }
        transfer.state = .finished
        let continuation = transfer.continuation
        transfer.continuation = nil
        continuation?.resume(with: result)
    }

    /// Keeps the handle for the next transfer, options and all: every handle of this engine has
    /// the same fixed options, and the next transfer sets its own (no `curl_easy_reset`).
    private func recycle(_ easy: CurlEasyHandle) {
        if idleHandles.count < configuration.maxIdleHandles { idleHandles.append(easy) }
    }
}
