import AppLogging
import CMicroHTTPD
import EventLoops
import Foundation
import HTTPTypes
import Synchronization

extension ServerCore {
    /// One access-handler call for `context` (see libmicrohttpd's `MHD_AccessHandlerCallback`).
    ///
    /// The first call only records and checks the head: queueing the normal answer there would
    /// make libmicrohttpd 0.9.75 close the connection. Rejections that close anyway are queued at once.
    func access(
        _ context: RequestContext,
        connection: OpaquePointer,
        url: UnsafePointer<CChar>?,
        method: UnsafePointer<CChar>?,
        version: UnsafePointer<CChar>?,
        uploadData: UnsafePointer<CChar>?,
        uploadDataSize: UnsafeMutablePointer<Int>
    ) -> MHD_Result {
        switch context.stage {
        case .head:
            context.connection = connection
            context.headCursor = HeadIntegrity.checkRequestLine(
                method: method,
                url: url,
                version: version,
                targetLength: context.target.utf8.count
            )
            context.headIsBroken = context.headCursor == nil
            _ = MHD_get_connection_values_n(
                connection,
                .HEADER_KIND,
                MHDCallbacks.collectHeader,
                Unmanaged.passUnretained(context).toOpaque()
            )
            if !context.headIsBroken, let cursor = context.headCursor, !HeadIntegrity.checkEnd(cursor) {
                context.headIsBroken = true
            }
            if let rejection = RequestValidator.check(
                context,
                version: version,
                configuration: configuration
            ) {
                return reject(context, connection: connection, with: rejection)
            }
            if let length = context.contentLength.flatMap(Int.init), length > 0 {
                context.body.reserveCapacity(length)
            }
            context.stage = .body
            return .YES
        case .body:
            let size = uploadDataSize.pointee
            if size > 0 {
                uploadDataSize.pointee = 0
                guard context.body.count + size <= configuration.maxBodyBytes else {
                    // Only a chunked body gets here (Content-Length was checked on the head).
                    context.stage = .discarding
                    context.discardedBytes = context.body.count + size
                    context.body = Data()
                    return .YES
                }
                if let uploadData {
                    context.body.append(UnsafeRawPointer(uploadData).assumingMemoryBound(to: UInt8.self), count: size)
                }
                return .YES
            }
            return dispatch(context, connection: connection, method: method, version: version)
        case .waiting:
            guard let response = context.response else { return .NO }
            context.stage = .answered
            context.response = nil
            return queue(response, on: connection, close: context.closeAfterResponse)
        case .discarding:
            let size = uploadDataSize.pointee
            guard size == 0 else {
                uploadDataSize.pointee = 0
                context.discardedBytes += size
                // Read at most twice the limit before giving up on answering and closing.
                return context.discardedBytes > 2 * max(configuration.maxBodyBytes, 65536) ? .NO : .YES
            }
            return reject(context, connection: connection, with: .bodyTooLarge(limit: configuration.maxBodyBytes))
        case .rejected:
            // Body bytes after a rejection are not read: the connection closes after the answer.
            uploadDataSize.pointee = 0
            return .YES
        case .answered:
            return .NO
        }
    }

    private func reject(
        _ context: RequestContext,
        connection: OpaquePointer,
        with rejection: RequestValidator.Rejection
    ) -> MHD_Result {
        context.stage = .rejected
        return queue(rejection.response, on: connection, close: true)
    }

    /// Runs the handler in a task on the connection's loop; queues its answer at once when it comes
    /// without waiting, otherwise suspends the connection and queues the answer after the resume.
    private func dispatch(
        _ context: RequestContext,
        connection: OpaquePointer,
        method: UnsafePointer<CChar>?,
        version: UnsafePointer<CChar>?
    ) -> MHD_Result {
        let request = ServerRequest(
            method: method.map { String(cString: $0) } ?? "GET",
            target: context.target,
            version: version.map { String(cString: $0) } ?? "",
            headers: context.headers,
            body: context.body,
            remote: Self.remoteAddress(of: connection)
        )
        context.body = Data()
        context.headers = ServerHeaders()
        context.stage = .waiting
        if let timeout = configuration.handlerTimeout { context.deadline = .now + timeout }
        let admitted = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.pending[ObjectIdentifier(context)] = context
            return true
        }
        guard admitted else {
            context.stage = .answered
            return queue(.problem(503, detail: "The server is shutting down."), on: connection, close: true)
        }
        context.dispatched = true
        inFlight.add(1, ordering: .relaxed)
        // The loop is the task's preferred executor: the handler and its hops stay on this thread.
        Task(executorPreference: context.loop) { await self.run(request, context: context) }
        // Run the loop's queue now: a handler that does not really wait (its hops are to default
        // actors or yields) answers here, and the connection need not be suspended and resumed.
        context.loop?.runQueuedJobs()
        let answered = state.withLock { _ -> Bool in
            if context.response != nil { return true }
            context.parked = true
            MHD_suspend_connection(connection)
            return false
        }
        guard answered, let response = context.response else { return .YES }
        context.stage = .answered
        context.response = nil
        return queue(response, on: connection, close: context.closeAfterResponse)
    }

    /// Queues `response` on `connection`; a response libmicrohttpd refuses becomes a closed connection.
    func queue(_ response: ServerResponse, on connection: OpaquePointer, close: Bool) -> MHD_Result {
        var status = response.status
        if !(200...599).contains(status) {
            logger.error("handler answered with an invalid status", metadata: ["status": "\(status)"])
            status = 500
        }
        let hasBody = status != 204 && status != 304
        let mhdResponse = response.body.withUnsafeBytes { bytes -> OpaquePointer? in
            guard hasBody, let base = bytes.baseAddress, bytes.count > 0 else {
                return MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
            }
            return MHD_create_response_from_buffer(
                bytes.count, UnsafeMutableRawPointer(mutating: base), .RESPMEM_MUST_COPY)
        }
        guard let mhdResponse else {
            logger.error("could not allocate a response")
            return .NO
        }
        defer { MHD_destroy_response(mhdResponse) }
        var close = close || draining.load(ordering: .relaxed)
        for field in response.headers {
            if ServerHeaders.isConnectionSpecific(field.name) {
                // Framing and connection fields are the server's: a proxied upstream's
                // `Transfer-Encoding` or `Connection: keep-alive` must not reach the client.
                if field.name.equalsIgnoringASCIICase("Connection"), field.value.lowercased().contains("close") {
                    close = true
                }
                continue
            }
            // `withCString` hands over a native string's own bytes; passing the Strings directly
            // would copy each into a new array.
            let added = field.name.withCString { name in
                field.value.withCString { value in MHD_add_response_header(mhdResponse, name, value) }
            }
            if added != .YES {
                logger.warning(
                    "dropped a response header libmicrohttpd refused",
                    metadata: ["header": "\(field.name)"]
                )
            }
        }
        if close {
            _ = MHD_add_response_header(mhdResponse, "Connection", "close")
        }
        return MHD_queue_response(connection, UInt32(status), mhdResponse)
    }

    /// The client's address as libmicrohttpd reports it: its bytes, not yet formatted.
    private static func remoteAddress(of connection: OpaquePointer) -> RemoteAddress {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { buffer -> RemoteAddress in
            guard let base = buffer.baseAddress else { return .unknown }
            let family = swifty_mhd_client_address_bytes(connection, base)
            return RemoteAddress(family: family, bytes: UnsafeRawBufferPointer(buffer))
        }
    }
}
