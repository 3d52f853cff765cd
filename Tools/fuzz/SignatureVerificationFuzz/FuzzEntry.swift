// The libFuzzer entry of the SignatureVerification target: compiled by Tools/fuzz/run with
// Tests/RequestSigningTests/SignatureVerificationFuzzExercise.swift, which does the work.
import Dispatch

/// The broken invariant of the current input: written by the task before it signals, read by
/// the fuzzer's thread after the wait, so the semaphore orders the two.
nonisolated(unsafe) private var failure: (any Error)?

/// Runs one input through the signer and the verifier; a broken invariant stops the run.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let done = DispatchSemaphore(value: 0)
    // The fuzzer's thread is not one of the concurrency pool's, so it may wait for the task.
    Task {
        do {
            try await SignatureVerificationFuzzExercise.run(input)
        } catch {
            failure = error
        }
        done.signal()
    }
    done.wait()
    if let failure { fatalError("invariant broken: \(failure)") }
    return 0
}
