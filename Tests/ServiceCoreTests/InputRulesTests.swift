import ServiceCore
import Testing

/// The shared input checks: what each accepts, the exact message of each refusal (naming the
/// field and the rule, never the value), and the module and case named in the error.
struct InputRulesTests {
    static let check = InputRules(module: "CatalogModule", operation: "item")

    /// The error a check throws, or `nil` when it accepts.
    static func refusal(_ body: (InputRules) throws -> Void) -> ServiceError? {
        do {
            try body(check)
            return nil
        } catch let error as ServiceError {
            return error
        } catch {
            Issue.record("a check threw \(error), not a ServiceError")
            return nil
        }
    }

    @Test(arguments: [
        "a", "alice", "a/b?c#d é", "...", ".a", String(repeating: "x", count: 128), String(repeating: "é", count: 64),
    ])
    func identifiersAccepted(_ value: String) {
        #expect(Self.refusal { try $0.identifier(value, named: "id") } == nil)
    }

    @Test(arguments: [
        ("", "id must not be empty"),
        (String(repeating: "x", count: 129), "id must be at most 128 bytes of UTF-8"),
        (String(repeating: "é", count: 65), "id must be at most 128 bytes of UTF-8"),
        ("a\nb", "id must not contain control characters"),
        ("tab\there", "id must not contain control characters"),
        ("del\u{7F}", "id must not contain control characters"),
        ("c1\u{85}", "id must not contain control characters"),
        (".", "id must not be \".\" or \"..\""),
        ("..", "id must not be \".\" or \"..\""),
    ])
    func identifiersRefused(_ value: String, _ message: String) throws {
        let error = try #require(Self.refusal { try $0.identifier(value, named: "id") })
        #expect(error.code == .invalidRequest)
        #expect(error.module == "CatalogModule")
        #expect(error.operation == "item")
        #expect(error.message == message)
        #expect(error.request == nil)
    }

    @Test(arguments: [
        ("", "token must not be empty"),
        ("se\u{1}cret", "token must not contain control characters"),
        ("s3cr3t-token-value", "token must be at most 8 bytes of UTF-8"),
    ])
    func opaqueStringsRefusedWithoutTheirValue(_ value: String, _ message: String) throws {
        let error = try #require(Self.refusal { try $0.opaque(value, named: "token", maximumBytes: 8) })
        #expect(error.message == message)
        if !value.isEmpty {
            #expect(!error.description.contains(value))
        }
    }

    @Test
    func opaqueStringsAcceptDotsAndTheirLimit() {
        #expect(Self.refusal { try $0.opaque("..", named: "token", maximumBytes: 8) } == nil)
        #expect(Self.refusal { try $0.opaque("12345678", named: "token", maximumBytes: 8) } == nil)
    }

    @Test
    func cursors() throws {
        #expect(Self.refusal { try $0.cursor(nil) } == nil)
        #expect(Self.refusal { try $0.cursor(String(repeating: "c", count: 512)) } == nil)
        let long = try #require(Self.refusal { try $0.cursor(String(repeating: "c", count: 513)) })
        #expect(long.message == "cursor must be at most 512 bytes of UTF-8")
        let empty = try #require(Self.refusal { try $0.cursor("") })
        #expect(empty.message == "cursor must not be empty")
        let control = try #require(Self.refusal { try $0.cursor("a\rb") })
        #expect(control.message == "cursor must not contain control characters")
    }

    @Test(arguments: [1, 20, 100])
    func limitsAccepted(_ value: Int) {
        #expect(Self.refusal { try $0.limit(value) } == nil)
    }

    @Test(arguments: [0, -1, 101, Int.max, Int.min])
    func limitsRefusedNamingTheNumber(_ value: Int) throws {
        let error = try #require(Self.refusal { try $0.limit(value) })
        #expect(error.message == "limit must be between 1 and 100, got \(value)")
    }

    @Test
    func failureIsAnInvalidRequestOfTheCase() {
        let error = Self.check.failure("payee must differ from payer")
        #expect(error.code == .invalidRequest)
        #expect(error.module == "CatalogModule")
        #expect(error.operation == "item")
        #expect(error.message == "payee must differ from payer")
        #expect(error.description == "CatalogModule.item: invalid request: payee must differ from payer")
    }

    @Test
    func forAServiceCaseNamesItsModuleAndOperation() {
        let check = InputRules(for: CatalogService.search(cursor: nil, limit: 1))
        #expect(check.module == "CatalogModule")
        #expect(check.operation == "search")
    }

    @Test
    func controlCharacters() {
        #expect(!InputRules.hasControlCharacters("plain text, é, 🙂"))
        #expect(InputRules.hasControlCharacters("line\nbreak"))
        #expect(!InputRules.hasControlCharacters("line\nbreak\ttab\r", allowing: ["\n", "\r", "\t"]))
        #expect(InputRules.hasControlCharacters("bell\u{7}", allowing: ["\n", "\r", "\t"]))
        #expect(!InputRules.hasControlCharacters("zero\u{200B}width"))  // a format character (Cf), not Cc
    }

    /// Every scalar is a control character exactly when Unicode's property tables put it in
    /// general category Cc.
    @Test
    func controlCharactersAreCategoryCc() {
        var mismatches: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let expected = scalar.properties.generalCategory == .control
            if InputRules.hasControlCharacters(String(scalar)) != expected { mismatches.append(value) }
        }
        #expect(mismatches.isEmpty, "mismatched scalars: \(mismatches.prefix(10))")
    }

    @Test
    func theLimitsAreTheDocumentedOnes() {
        #expect(InputRules.maximumIdentifierBytes == 128)
        #expect(InputRules.maximumCursorBytes == 512)
        #expect(InputRules.pageLimits == 1...100)
    }
}
