// The libFuzzer entry of every target: Tools/fuzz/run compiles it with the target's
// Tools/fuzz/<Target>Fuzz/Exercise.swift, which names the exercise, and the exercise itself (in
// the target's test folder, where the replay tests use it too).
import Dispatch

/// How a target's exercise runs one input: on the fuzzer's thread, or as a task the thread waits
/// for (the fuzzer's thread is not one of the concurrency pool's, so it may block).
enum FuzzExerciseKind: Sendable {
    /// A synchronous exercise.
    case blocking(@Sendable ([UInt8]) throws -> Void)
    /// An exercise that awaits (servers, transports).
    case async(@Sendable ([UInt8]) async throws -> Void)
}

/// The broken invariant of the current input of an async exercise: written by the task before it
/// signals, read by the fuzzer's thread after the wait, so the semaphore orders the two.
nonisolated(unsafe) private var failure: (any Error)?

/// Runs one input through the target's exercise; a broken invariant stops the run with the input
/// saved.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    switch fuzzExercise {
    case .blocking(let run):
        do {
            try run(input)
        } catch {
            fatalError("invariant broken: \(error)")
        }
    case .async(let run):
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                try await run(input)
            } catch {
                failure = error
            }
            done.signal()
        }
        done.wait()
        if let failure { fatalError("invariant broken: \(failure)") }
    }
    return 0
}
