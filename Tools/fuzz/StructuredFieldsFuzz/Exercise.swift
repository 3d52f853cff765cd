// The StructuredFields target's exercise (Tests/RequestSigningTests/StructuredFieldsFuzzExercise.swift), run by Tools/fuzz/FuzzEntry.swift.
let fuzzExercise = FuzzExerciseKind.blocking { try StructuredFieldsFuzzExercise.run($0) }
