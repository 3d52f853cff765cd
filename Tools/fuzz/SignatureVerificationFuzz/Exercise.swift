// The SignatureVerification target's exercise (Tests/RequestSigningTests/SignatureVerificationFuzzExercise.swift), run by Tools/fuzz/FuzzEntry.swift.
let fuzzExercise = FuzzExerciseKind.async { try await SignatureVerificationFuzzExercise.run($0) }
