import AppLogging
import Testing

struct LoggerTests {
    @Test func recordsBelowTheLevelAreNotBuilt() {
        let memory = InMemoryLogHandler()
        let logger = Logger(label: "t", handler: memory, logLevel: .warning)
        var built = false
        logger.info("\({ built = true; return "x" }())")
        logger.error("failed")
        #expect(!built)
        #expect(memory.records.map(\.message) == ["failed"])
    }

    @Test func metadataMergesWithRecordWinning() {
        let memory = InMemoryLogHandler()
        var logger = Logger(label: "t", handler: memory)
        logger[metadataKey: "a"] = "1"
        logger[metadataKey: "b"] = "1"
        logger.info("m", metadata: ["b": "2"])
        #expect(memory.records.first?.metadata == ["a": "1", "b": "2"])
    }

    @Test func jsonLinesEscapeControlCharacters() {
        let memory = InMemoryLogHandler()
        let logger = Logger(label: "swiftyd", handler: memory)
        logger.info("line\n\"quoted\"\u{1}", metadata: ["k": ["x", "y"], "d": ["n": "v"]])
        let line = memory.renderedLines.first ?? ""
        #expect(line.contains(#""msg":"line\n\"quoted\"\u0001""#))
        #expect(line.contains(#""k":["x","y"]"#))
        #expect(line.contains(#""d":{"n":"v"}"#))
        #expect(line.hasPrefix(#"{"ts":""#))
        #expect(line.contains(#""level":"info","label":"swiftyd""#))
    }

    @Test func levelsAreOrdered() {
        #expect(Logger.Level.trace < .debug)
        #expect(Logger.Level.error < .critical)
        #expect(Logger.Level.allCases.sorted() == Logger.Level.allCases)
    }
}
