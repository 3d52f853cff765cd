public import EventLoops

/// A Redis client on the project's event loops: commands in argv form, pipelines, Lua scripts by
/// SHA-1, a bounded pool per loop, reconnection with backoff, timeouts from loop timers.
///
/// Concurrent calls share connections: each is written as it comes, without waiting for the
/// replies to earlier ones, and replies are matched to calls in order (see
/// ``RedisConfiguration/maximumPipelinedCommandsPerConnection``).
///
/// Replies are read by hiredis's RESP reader over non-blocking sockets of the client's own,
/// watched by the loops of the `EventLoopGroup` it is given; no thread waits on a call. A call
/// made on one of those loops (a request handler of an `HTTPServer` on the same group) runs on
/// that loop's connections and resumes there; a call from any other thread is handed to the
/// next loop in turn.
///
/// ```swift
/// let loops = try EventLoopGroup(loopCount: 2, name: "redis")
/// let redis = RedisClient(configuration: RedisConfiguration(endpoint: .tcp(host: "127.0.0.1", port: 6379)),
///                         eventLoops: loops)
/// _ = try await redis.send(["SET", "greeting", "hello"])
/// let value = try await redis.send(["GET", "greeting"])  // .bulkString(Array("hello".utf8))
/// await redis.shutdown()
/// await loops.shutdown()
/// ```
///
/// Every failure is a ``RedisError``. No message holds a password or a command's arguments.
public final class RedisClient: Sendable {
    /// The settings the client was made with.
    public let configuration: RedisConfiguration
    /// The loops its connections live on; not stopped by the client.
    public let eventLoops: EventLoopGroup
    private let pools: IOEventLoopMembers<RedisLoopPool>

    /// Creates a client; connections are opened when calls need them.
    /// - Parameters:
    ///   - configuration: Where Redis is, credentials, database, timeouts and pool bounds.
    ///   - eventLoops: The loops the connections live on (an HTTP server's, so that its handlers'
    ///     calls stay on their thread).
    public init(configuration: RedisConfiguration, eventLoops: EventLoopGroup) {
        self.configuration = configuration
        self.eventLoops = eventLoops
        let reconnect = RedisReconnectState(backoff: configuration.reconnectBackoff)
        pools = IOEventLoopMembers { loop, onClose in
            RedisLoopPool(loop: loop, configuration: configuration, reconnect: reconnect, onClose: onClose)
        }
    }

    deinit {
        pools.shutdownWithoutWaiting()
    }

    /// Sends one command and returns its reply.
    ///
    /// - Parameters:
    ///   - command: The command name and its arguments, such as `["SET", "key", value]`.
    ///   - timeout: How long the call may take, waiting for a connection included;
    ///     ``RedisConfiguration/commandTimeout`` by default.
    /// - Throws: ``RedisError``: `server` for an error reply (``RedisError/serverMessage`` holds
    ///   it), `timedOut`, `connectionFailed`, `authenticationFailed`, `connectionClosed`,
    ///   `protocolError`, `poolExhausted`, `cancelled`, `shutDown`, or `invalidArgument` for an
    ///   empty command.
    public func send(_ command: [RedisArgument], timeout: Duration? = nil) async throws -> RedisValue {
        let reply = try await perform([command], timeout: timeout)[0]
        if case .error(let message) = reply {
            throw RedisError(
                .server, "\(RedisCommandEncoder.name(of: command)) failed: \(message)", serverMessage: message)
        }
        return reply
    }

    /// Sends one command given as strings; see ``send(_:timeout:)-([RedisArgument],_)``.
    public func send(_ command: [String], timeout: Duration? = nil) async throws -> RedisValue {
        try await send(command.map { RedisArgument($0) }, timeout: timeout)
    }

    /// Sends commands together on one connection, with no other call's command between them,
    /// and returns their replies in order.
    ///
    /// An error reply stays in its place as ``RedisValue/error(_:)``: the other commands ran.
    /// Not a transaction: wrap the commands in `MULTI` and `EXEC` for that, in the same pipeline
    /// (calls share connections, so separate calls may have others' commands between them).
    /// - Parameters:
    ///   - commands: The commands, each a name and its arguments.
    ///   - timeout: How long the whole batch may take; ``RedisConfiguration/commandTimeout`` by
    ///     default.
    /// - Throws: ``RedisError`` as ``send(_:timeout:)-([RedisArgument],_)`` does, except `server`.
    public func pipeline(_ commands: [[RedisArgument]], timeout: Duration? = nil) async throws -> [RedisValue] {
        guard !commands.isEmpty else { return [] }
        return try await perform(commands, timeout: timeout)
    }

    /// Runs a Lua script by its SHA-1 (`EVALSHA`), and by its source (`EVAL`, which also loads
    /// it) once when Redis answers `NOSCRIPT`.
    ///
    /// - Parameters:
    ///   - script: The script.
    ///   - keys: The keys it touches (`KEYS` in Lua).
    ///   - arguments: Its other arguments (`ARGV` in Lua).
    ///   - timeout: How long each attempt may take; ``RedisConfiguration/commandTimeout`` by
    ///     default.
    /// - Throws: ``RedisError`` as ``send(_:timeout:)-([RedisArgument],_)`` does.
    public func evalScript(
        _ script: RedisScript, keys: [RedisArgument] = [], arguments: [RedisArgument] = [],
        timeout: Duration? = nil
    ) async throws -> RedisValue {
        let tail = [RedisArgument(keys.count)] + keys + arguments
        do {
            return try await send(["EVALSHA", RedisArgument(script.sha1)] + tail, timeout: timeout)
        } catch let error as RedisError where error.code == .server && error.serverErrorPrefix == "NOSCRIPT" {
            return try await send(["EVAL", RedisArgument(script.source)] + tail, timeout: timeout)
        }
    }

    /// Stops the client: calls in flight or waiting fail with `shutDown`, every connection is
    /// closed, and later calls fail with `shutDown` at once. Calling it again returns at once.
    public func shutdown() async {
        await pools.shutdown(gracePeriod: .zero)
    }

    /// How many event loops the client has opened connections on (for tests).
    package var poolCount: Int { pools.count }

    // MARK: - Running a call

    private func perform(_ commands: [[RedisArgument]], timeout: Duration?) async throws -> [RedisValue] {
        for command in commands where command.isEmpty {
            throw RedisError(.invalidArgument, "a command needs at least its name")
        }
        // Encoded by the pool, straight into its connection's output.
        let request = RedisRequest(
            commands: commands, timeout: timeout ?? configuration.commandTimeout,
            exclusive: commands.contains(where: RedisCommandEncoder.isBlocking))
        if Task.isCancelled { throw RedisError(.cancelled, "\(request.summary) was cancelled before it was sent") }
        let current = eventLoops.loopOfCaller
        let loop = current ?? eventLoops.next()
        let pools = self.pools
        return try await withTaskCancellationHandler {
            // Unsafe (no checking canary to allocate): resumed exactly once, by
            // `RedisLoopPool.finish`, which clears the continuation, or below when the loop has
            // stopped (then nothing else holds it).
            try await withUnsafeThrowingContinuation { continuation in
                request.continuation = continuation
                if current != nil {
                    // Still on the loop's thread: nothing suspended since `loopOfCaller`.
                    Self.submit(request, to: loop, pools: pools)
                } else if !loop.execute({ Self.submit(request, to: loop, pools: pools) }) {
                    request.continuation = nil
                    continuation.resume(
                        throwing: RedisError(.shutDown, "the event loops stopped before \(request.summary)"))
                }
            }
        } onCancel: {
            // Runs on the loop after the hand-over of the call (queued before it) or, when the
            // cancellation came first, marks the call so that its pool refuses it.
            loop.execute {
                if let pool = request.pool {
                    pool.cancel(request)
                } else {
                    request.cancelledBeforeSubmission = true
                }
            }
        }
    }

    /// Hands a call to the pool of `loop` (on its thread).
    private static func submit(_ request: RedisRequest, to loop: EventLoop, pools: IOEventLoopMembers<RedisLoopPool>) {
        guard let pool = pools.member(for: loop) else {
            let continuation = request.continuation
            request.continuation = nil
            continuation?.resume(
                throwing: RedisError(.shutDown, "the client was shut down before \(request.summary)"))
            return
        }
        pool.submit(request)
    }
}
