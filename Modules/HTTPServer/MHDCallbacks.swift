import CMicroHTTPD
import Foundation
import HTTPTypes
import Synchronization

/// The C callbacks handed to libmicrohttpd. They are static functions (never closures) so they
/// capture nothing; each finds its ``ServerCore`` or ``RequestContext`` through a `void *`.
///
/// Every daemon's `cls` is its ``MHDLoopDriver`` (which holds the ``ServerCore`` and the loop).
enum MHDCallbacks {
    /// `MHD_OPTION_URI_LOG_CALLBACK`: creates the request's context with the raw request-target.
    ///
    /// The context is retained once here; ``completed`` releases it once.
    static let uriLog: swifty_mhd_uri_logger = { cls, uri, _ in
        guard let cls, let uri else { return nil }
        let core = Unmanaged<MHDLoopDriver>.fromOpaque(cls).takeUnretainedValue().core
        return Unmanaged.passRetained(RequestContext(rawTarget: uri, liveCounter: core.liveContexts)).toOpaque()
    }

    /// `MHD_AccessHandlerCallback`: forwards to ``ServerCore/access(_:connection:method:version:uploadData:uploadDataSize:)``.
    static let access: MHD_AccessHandlerCallback = { cls, connection, url, method, version, data, size, conCls in
        guard let cls, let connection, let size, let conCls else { return .NO }
        let driver = Unmanaged<MHDLoopDriver>.fromOpaque(cls).takeUnretainedValue()
        let core = driver.core
        let context: RequestContext
        if let existing = conCls.pointee {
            context = Unmanaged<RequestContext>.fromOpaque(existing).takeUnretainedValue()
        } else {
            // Only when the URI-log callback did not run; keep the (unescaped) URL then.
            context =
                url.map { RequestContext(rawTarget: $0, liveCounter: core.liveContexts) }
                ?? RequestContext(target: "", targetIsValid: false, liveCounter: core.liveContexts)
            conCls.pointee = Unmanaged.passRetained(context).toOpaque()
        }
        if context.loop == nil { context.loop = driver.loop }
        return core.access(
            context,
            connection: connection,
            url: url,
            method: method,
            version: version,
            uploadData: data,
            uploadDataSize: size
        )
    }

    /// `MHD_OPTION_NOTIFY_COMPLETED`: releases the context retained by ``uriLog`` (or ``access``).
    static let completed: MHD_RequestCompletedCallback = { cls, _, conCls, _ in
        guard let cls, let conCls, let raw = conCls.pointee else { return }
        conCls.pointee = nil
        let core = Unmanaged<MHDLoopDriver>.fromOpaque(cls).takeUnretainedValue().core
        let context = Unmanaged<RequestContext>.fromOpaque(raw).takeRetainedValue()
        guard context.dispatched else { return }
        if context.stage == .waiting {
            // Not resumed (only possible while the daemon stops): make sure nobody resumes it later.
            core.state.withLock { _ = $0.pending.removeValue(forKey: ObjectIdentifier(context)) }
        }
        core.inFlight.subtract(1, ordering: .relaxed)
    }

    /// `MHD_KeyValueIteratorN` over the request's header fields: appends each to the context and
    /// records what ``RequestValidator`` needs, in one pass.
    static let collectHeader: MHD_KeyValueIteratorN = { cls, _, key, keySize, value, valueSize in
        guard let cls, let key else { return .YES }
        let context = Unmanaged<RequestContext>.fromOpaque(cls).takeUnretainedValue()
        if !context.headIsBroken {
            if let cursor = context.headCursor, let value, HeadIntegrity.checkField(after: cursor, key: key) {
                context.headCursor = value + valueSize
            } else {
                context.headIsBroken = true
            }
        }
        let nameBytes = UnsafeRawBufferPointer(start: key, count: keySize)
        if keySize == 0 || !nameBytes.allSatisfy(HTTPToken.isTokenCharacter) {
            context.headerNameIsInvalid = true
        }
        let valueBytes = UnsafeRawBufferPointer(start: value, count: value == nil ? 0 : valueSize)
        for byte in valueBytes where byte == 0 || byte == 0x0D || byte == 0x0A {
            context.headerHasControlCharacter = true
            break
        }
        let name = String(decoding: nameBytes, as: UTF8.self)
        let text = String(decoding: valueBytes, as: UTF8.self)
        context.headerBytes += keySize + valueSize + 4
        context.headers.add(name: name, value: text)
        switch keySize {
        case 4 where name.equalsIgnoringASCIICase("Host"):
            context.hostCount += 1
        case 14 where name.equalsIgnoringASCIICase("Content-Length"):
            context.contentLengthCount += 1
            context.contentLength = text
        case 17 where name.equalsIgnoringASCIICase("Transfer-Encoding"):
            context.transferEncoding = text
        default:
            break
        }
        return .YES
    }
}
