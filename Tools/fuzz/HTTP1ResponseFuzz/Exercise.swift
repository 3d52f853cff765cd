// The HTTP1Response target's exercise (Tests/HTTP1TransportTests/HTTP1ResponseFuzzExercise.swift), run by Tools/fuzz/FuzzEntry.swift.
let fuzzExercise = FuzzExerciseKind.async { try await HTTP1ResponseFuzzExercise.run($0) }
