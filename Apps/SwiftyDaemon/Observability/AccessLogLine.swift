import AppLogging
import Foundation

/// What one access-log line says about a request: its id, method, route pattern, status,
/// duration and upstream calls (each with its attempts).
///
/// It goes out either as a `Logger` record (``metadata``) or, when the access log writes JSON
/// lines to a stream and nothing else shapes them, as the same bytes written directly
/// (``append(to:date:label:)``), without building a `Logger.Metadata` dictionary per request.
struct AccessLogLine {
    var requestID: String
    var method: String
    var route: String
    var status: String
    var durationMilliseconds: String
    var upstream: [RequestTrace.Call]
    /// The client's address resolved through the trusted proxies, when any are configured.
    var client: String?
    /// The reason of a refusal of the server's own, or `nil` for a request a handler answered.
    var refusal: String?

    /// The record's metadata, for any log handler.
    var metadata: Logger.Metadata {
        var metadata: Logger.Metadata = [
            "request_id": .string(requestID),
            "method": .string(method),
            "route": .string(route),
            "status": .string(status),
            "duration_ms": .string(durationMilliseconds),
            "upstream": .array(
                upstream.map { call in
                    .dictionary([
                        "attempts": .string(String(call.attempts)),
                        "module": .string(call.module), "operation": .string(call.operation),
                        "outcome": .string(call.outcome), "ms": .string(String(call.milliseconds)),
                    ])
                }),
        ]
        if let refusal { metadata["refusal"] = .string(refusal) }
        if let client { metadata["client"] = .string(client) }
        return metadata
    }

    /// Appends to `buffer`, in place, the JSON line a ``StreamLogHandler`` writes for an `info`
    /// record `"request"` with ``metadata`` (keys in sorted order, as its formatter puts them),
    /// newline included.
    func append(to buffer: inout [UInt8], date: Date, label: String) {
        // Moved out and back, so the line grows the buffer's own storage without a copy.
        var taken: [UInt8] = []
        swap(&taken, &buffer)
        var line = JSONLogLine(appendingTo: consume taken, date: date, level: .info, label: label, message: "request")
        if let client { line.member("client", client) }
        line.member("duration_ms", durationMilliseconds)
        line.member("method", method)
        if let refusal { line.member("refusal", refusal) }
        line.member("request_id", requestID)
        line.member("route", route)
        line.member("status", status)
        line.openArray("upstream")
        for call in upstream {
            line.openObject()
            line.member("attempts", String(call.attempts))
            line.member("module", call.module)
            line.member("ms", String(call.milliseconds))
            line.member("operation", call.operation)
            line.member("outcome", call.outcome)
            line.closeObject()
        }
        line.closeArray()
        buffer = line.finish(newline: true)
    }

    /// `logger`'s handler when access lines may bypass `Logger`: a JSON ``StreamLogHandler``,
    /// `info` enabled and no metadata of the logger's own to merge in; otherwise `nil`.
    static func directStream(for logger: Logger) -> StreamLogHandler? {
        guard logger.logLevel <= .info, logger.metadata.isEmpty,
            let stream = logger.handler as? StreamLogHandler, stream.writesJSON
        else { return nil }
        return stream
    }
}
