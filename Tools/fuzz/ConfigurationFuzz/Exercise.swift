// The Configuration target's exercise (Tests/SwiftyDaemonTests/ConfigurationFuzzExercise.swift), run by Tools/fuzz/FuzzEntry.swift.
let fuzzExercise = FuzzExerciseKind.blocking { try ConfigurationFuzzExercise.run($0) }
