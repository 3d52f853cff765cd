// The JSON target's exercise (Tests/JSONTests/JSONFuzzExercise.swift), run by Tools/fuzz/FuzzEntry.swift.
let fuzzExercise = FuzzExerciseKind.blocking { try JSONFuzzExercise.run($0) }
