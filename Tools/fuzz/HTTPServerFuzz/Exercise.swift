// The HTTPServer target's exercise (Tests/HTTPServerTests/FuzzExercise.swift), run by Tools/fuzz/FuzzEntry.swift.
let fuzzExercise = FuzzExerciseKind.blocking { try FuzzExercise.run($0) }
