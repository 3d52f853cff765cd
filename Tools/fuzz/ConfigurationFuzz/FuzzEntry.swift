// The libFuzzer entry of the Configuration target: compiled by Tools/fuzz/run with
// Tests/SwiftyDaemonTests/ConfigurationFuzzExercise.swift, which does the work.

/// Runs one input through the daemon's configuration loader; a broken invariant stops the run.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do {
        try ConfigurationFuzzExercise.run(input)
    } catch {
        fatalError("invariant broken: \(error)")
    }
    return 0
}
