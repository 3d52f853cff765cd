// The PathsAndPercent target's exercise (Tests/HTTPServerTests/PathsAndPercentFuzzExercise.swift), run by Tools/fuzz/FuzzEntry.swift.
let fuzzExercise = FuzzExerciseKind.async { try await PathsAndPercentFuzzExercise.run($0) }
