// The libFuzzer entry of the StructuredFields target: compiled by Tools/fuzz/run with
// Tests/RequestSigningTests/StructuredFieldsFuzzExercise.swift, which does the work.

/// Runs one input through the RFC 8941 parser; a broken invariant stops the run.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do {
        try StructuredFieldsFuzzExercise.run(input)
    } catch {
        fatalError("invariant broken: \(error)")
    }
    return 0
}
