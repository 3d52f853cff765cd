import RedisClient
import Synchronization

/// Sends commands made by many tasks at once in shared pipelines, so that concurrent checks
/// share round trips: the client carries one call per connection at a time.
///
/// A task whose command finds fewer than ``maximumSenders`` pipelines in flight sends it at once,
/// with every command queued meanwhile (at most ``maximumBatch``); otherwise it queues its command
/// and waits. When a pipeline's replies are in, its sender hands each waiting task its reply and
/// passes the sender's role to the first task still queued, so that no task sends more than one
/// pipeline and none waits for a pipeline that is not coming. With one task at a time, every
/// pipeline holds one command.
final class RedisCommandBatcher: Sendable {
    /// What a queued task is woken with.
    private enum Wake: Sendable {
        case reply(Result<RedisValue, RedisError>)
        /// Its turn to send a pipeline (its own command and those queued).
        case send
    }

    private struct Waiting {
        var command: [RedisArgument]
        var continuation: CheckedContinuation<Wake, Never>
    }

    private struct State {
        var queue: [Waiting] = []
        /// Tasks that send a pipeline or have been told to.
        var senders = 0
    }

    let client: RedisClient
    /// The most pipelines in flight at once: the connections the client keeps on one loop (the
    /// fewest it has when calls come from one loop's thread).
    let maximumSenders: Int
    /// The most commands in one pipeline.
    let maximumBatch: Int
    private let state = Mutex(State())

    init(client: RedisClient, maximumBatch: Int = 512) {
        self.client = client
        maximumSenders = max(1, client.configuration.maximumConnectionsPerLoop)
        self.maximumBatch = max(1, maximumBatch)
    }

    /// Sends `command`, in a pipeline with others when they are made at the same time.
    /// - Returns: Its reply (an error reply as ``RedisValue/error(_:)``), or why the pipeline
    ///   failed.
    nonisolated(nonsending)
        func send(_ command: [RedisArgument]) async -> Result<RedisValue, RedisError>
    {
        let sendsNow = state.withLock { state in
            guard state.senders < maximumSenders else { return false }
            state.senders += 1
            return true
        }
        if !sendsNow {
            let wake = await withCheckedContinuation { (continuation: CheckedContinuation<Wake, Never>) in
                // A sender may have finished since the check above: then this task sends.
                let sendsNow = state.withLock { state in
                    guard state.senders < maximumSenders else {
                        state.queue.append(Waiting(command: command, continuation: continuation))
                        return false
                    }
                    state.senders += 1
                    return true
                }
                if sendsNow { continuation.resume(returning: .send) }
            }
            if case .reply(let reply) = wake { return reply }
        }
        return await sendPipeline(with: command)
    }

    /// Sends `command` and the queued commands as one pipeline, wakes their tasks with their
    /// replies, and passes the sender's role on.
    nonisolated(nonsending)
        private func sendPipeline(with command: [RedisArgument]) async -> Result<RedisValue, RedisError>
    {
        let batch = state.withLock { state in
            let taken = Array(state.queue.prefix(maximumBatch - 1))
            state.queue.removeFirst(taken.count)
            return taken
        }
        // In a task of its own, which the sender's cancellation (its client gone) does not reach:
        // the pipeline carries the other tasks' checks too.
        let client = self.client
        let commands = [command] + batch.map(\.command)
        let replies = await Task { () -> Result<[RedisValue], RedisError> in
            do {
                return .success(try await client.pipeline(commands))
            } catch let error as RedisError {
                return .failure(error)
            } catch {
                return .failure(RedisError(.protocolError, "a pipeline failed: \(error)"))
            }
        }.value
        for (index, waiting) in batch.enumerated() {
            waiting.continuation.resume(returning: .reply(replies.map { $0[index + 1] }))
        }
        let next = state.withLock { state -> Waiting? in
            guard !state.queue.isEmpty else {
                state.senders -= 1
                return nil
            }
            return state.queue.removeFirst()
        }
        next?.continuation.resume(returning: .send)
        return replies.map { $0[0] }
    }
}
