// The libFuzzer entry of the HTTPServer target: compiled by Tools/fuzz/run with
// Tests/HTTPServerTests/FuzzExercise.swift, which does the work.

/// Runs one input through a connection of the fuzz server; a broken invariant stops the run.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do {
        try FuzzExercise.run(input)
    } catch {
        fatalError("invariant broken: \(error)")
    }
    return 0
}
