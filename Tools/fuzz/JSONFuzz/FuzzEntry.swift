// The libFuzzer entry of the JSON target: compiled by Tools/fuzz/run with
// Tests/JSONTests/JSONFuzzExercise.swift and Tests/JSONTests/ReferenceJSON.swift, which do the work.

/// Runs one input through the decoders and the rules; a difference stops the run.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do {
        try JSONFuzzExercise.run(input)
    } catch {
        fatalError("invariant broken: \(error)")
    }
    return 0
}
