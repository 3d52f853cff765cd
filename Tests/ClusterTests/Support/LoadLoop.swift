import Foundation
import Synchronization

/// Requests sent over and over by a few tasks until stopped (at most `limit` each), every
/// answer's status kept.
final class LoadLoop: Sendable {
    private let statuses = Mutex<[Int: Int]>([:])
    private let failures = Mutex<[String]>([])
    private let stopped = Atomic<Bool>(false)
    private let tasks: Mutex<[Task<Void, Never>]> = Mutex([])

    /// Starts `concurrency` tasks, each sending `request` up to `limit` times.
    init(concurrency: Int, limit: Int = 20_000, _ request: @escaping @Sendable (Int) async throws -> Int) {
        let started = (0..<concurrency).map { worker in
            Task { [self] in
                for index in 0..<limit where !stopped.load(ordering: .relaxed) {
                    do {
                        let status = try await request(worker * limit + index)
                        statuses.withLock { $0[status, default: 0] += 1 }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
            }
        }
        tasks.withLock { $0 = started }
    }

    /// Stops the tasks and waits for them; returns the count per status and the transport errors.
    func stop() async -> (statuses: [Int: Int], failures: [String]) {
        stopped.store(true, ordering: .relaxed)
        for task in tasks.withLock({ $0 }) { await task.value }
        return (statuses.withLock { $0 }, failures.withLock { $0 })
    }
}
