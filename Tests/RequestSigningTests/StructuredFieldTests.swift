import RequestSigning
import ServiceTesting
import Testing

struct StructuredFieldTests {
    /// Valid inputs and their canonical serialisations.
    @Test(arguments: [
        ("a=1, b=2;x=1;y=2, c=(a b c)", "a=1, b=2;x=1;y=2, c=(a b c)"),
        ("a=1,    b=2;x=1;y=2,   c=(a   b   c)", "a=1, b=2;x=1;y=2, c=(a b c)"),
        ("  a=1\t,\tb  ", "a=1, b"),
        ("d, e=?1, f=?0", "d, e, f=?0"),
        ("a=-12.300, b=0.5, c=-0", "a=-12.3, b=0.5, c=0"),
        ("s=\"he said \\\"hi\\\" \\\\o/\"", "s=\"he said \\\"hi\\\" \\\\o/\""),
        ("t=text/html;q=1.0, u=*foo:bar", "t=text/html;q=1.0, u=*foo:bar"),
        ("b=:aGVsbG8=:", "b=:aGVsbG8=:"),
        ("b=:aGVsbG8:", "b=:aGVsbG8=:"),
        ("a=1, a=2", "a=2"),
        ("sig1=();created=1", "sig1=();created=1"),
        ("l=( );p", "l=();p"),
        ("", ""),
    ])
    func dictionaries(_ input: String, _ expected: String) throws {
        let dictionary = try SFParser.parseDictionary(input)
        #expect(try dictionary.serialized() == expected)
        #expect(try SFParser.parseDictionary(expected) == dictionary)
    }

    @Test func typedValues() throws {
        let dictionary = try SFParser.parseDictionary(
            "i=-999999999999999, d=123456789012.123, s=\"x\", t=tok, b=:AAE=:, y, n=?0, l=(1 \"2\");k=v")
        #expect(dictionary["i"] == .item(SFItem(.integer(-999_999_999_999_999))))
        #expect(dictionary["d"] == .item(SFItem(.decimal(SFDecimal(thousandths: 123_456_789_012_123)))))
        #expect(dictionary["s"]?.item?.bareItem.stringValue == "x")
        #expect(dictionary["t"]?.item?.bareItem == .token("tok"))
        #expect(dictionary["b"]?.item?.bareItem.byteSequenceValue == [0, 1])
        #expect(dictionary["y"]?.item?.bareItem == .boolean(true))
        #expect(dictionary["n"]?.item?.bareItem == .boolean(false))
        let list = try #require(dictionary["l"]?.innerList)
        #expect(list.items.map(\.bareItem) == [.integer(1), .string("2")])
        #expect(list.parameters["k"] == .token("v"))
        #expect(dictionary.keys == ["i", "d", "s", "t", "b", "y", "n", "l"])
    }

    @Test func listsAndItems() throws {
        #expect(try SFParser.parseList("a, (b c);x, \"d\"").serialized() == "a, (b c);x, \"d\"")
        #expect(try SFParser.parseItem("  12;a=b  ").serialized() == "12;a=b")
        #expect(throws: StructuredFieldError.self) { try SFParser.parseItem("") }
    }

    /// Malformed inputs: each is an error, never a crash.
    @Test(arguments: [
        "sig1=(\"@method\" \"@path\"", "sig1=\"@method\" \"@path\")", "sig1=((\"a\"))", "sig1=(\"a\"\"b\")",
        "sig1=:not base64!:", "sig1=:YWJj", "sig1=:YQ===:", "sig1=:Y:", "a=1,", "a=1,,b=2", ",a=1", "A=1", "1a=2",
        "a=\"unterminated", "a=\"bad \\x escape\"", "a=\"tab\tinside\"", "a=?2", "a=?", "a=1.", "a=1.2345",
        "a=1234567890123.1", "a=1234567890123456", "a=-", "a=--1", "a=@date", "a=%\"display\"", "a=1;", "a=1;B=2",
        "a=(1 2", "a=(1)(2)", "a=1 b=2", "a=\u{e9}", "a=1\u{0}", "a=[1]", "a=1;k=", "a==1",
    ])
    func malformedDictionaries(_ input: String) {
        #expect(throws: StructuredFieldError.self) { try SFParser.parseDictionary(input) }
    }

    @Test func malformedSignatureInputsAreErrors() {
        for input in [
            "sig1=(\"@method\" \"@authority\"", "sig1=\"@method\"", "sig1=(@method)", "sig1=(\"@method\";x)",
            "sig1=(\"@unknown\")", "sig1=(\"@query-param\")", "sig1=(\"Content-Type\")", "sig1=(\"a\" \"a\")",
            "sig1=(\"@method\";req;req=?0)", "sig1=(\"x\";sf;bs)", "sig1=(\"@method\";key=\"a\")",
            "sig1=:AAAA:", "sig1=(\"@method\");created=1, sig2",
        ] {
            #expect(throws: SigningError.self, "\(input)") { try SignatureInput.parse(fieldValue: input) }
        }
    }

    @Test func limitsAreEnforcedBeforeParsing() {
        let huge = "sig1=(" + String(repeating: "\"a\" ", count: 100_000) + ")"
        #expect {
            try SFParser.parseDictionary(huge)
        } throws: { ($0 as? StructuredFieldError)?.code == .tooLong }
        let limits = SFParser.Limits(maximumMembers: 3, maximumInnerListItems: 2, maximumParameters: 1)
        #expect(throws: StructuredFieldError.self) { try SFParser.parseDictionary("a, b, c, d", limits: limits) }
        #expect(throws: StructuredFieldError.self) { try SFParser.parseDictionary("a=(1 2 3)", limits: limits) }
        #expect(throws: StructuredFieldError.self) { try SFParser.parseDictionary("a;x;y", limits: limits) }
        #expect(throws: Never.self) { try SFParser.parseDictionary("a, b=(1 2), c;x=1", limits: limits) }
        #expect(throws: SigningError.self) { try SignatureInput.parse(fieldValue: huge) }
    }

    @Test func serialisationRejectsInvalidValues() {
        #expect(throws: StructuredFieldError.self) { try SFItem(.integer(1_000_000_000_000_000)).serialized() }
        #expect(throws: StructuredFieldError.self) { try SFItem(.string("line\nbreak")).serialized() }
        #expect(throws: StructuredFieldError.self) { try SFItem(.token("1abc")).serialized() }
        #expect(throws: StructuredFieldError.self) {
            try SFDictionary([SFDictionary.Entry(key: "Upper", member: .item(SFItem(.integer(1))))]).serialized()
        }
    }

    /// Random bytes and random mutations of valid fields: every input either parses (and then
    /// round-trips through serialisation) or is a `StructuredFieldError`.
    @Test func fuzzedInputsNeverCrash() async throws {
        var generator = SplitMix64(seed: 0x5EED_F1E1_D5)
        let seeds = [
            "sig1=(\"@method\" \"@authority\" \"@path\");created=1618884473;keyid=\"k\";nonce=\"abc\"",
            "sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:, sha-512=:AAE=:",
            "a=1, b=2;x=1;y=?0, c=(a \"b\" :AAE=: 1.5);p=-3", "l=(\"x\";sf \"y\";key=\"z\");q",
        ]
        let alphabet = Array("()\";:=, ?*-.abcxyz019AZ\\/\t@%:".utf8)
        var parsed = 0
        for round in 0..<3_000 {
            // CPU-bound: let the other tests' tasks run now and then.
            if round % 100 == 0 { await Task.yield() }
            var bytes: [UInt8]
            if round % 3 == 0 {
                bytes = (0..<Int(generator.next() % 64)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            } else {
                bytes = Array(seeds[Int(generator.next() % UInt64(seeds.count))].utf8)
                for _ in 0..<(1 + Int(generator.next() % 4)) where !bytes.isEmpty {
                    let position = Int(generator.next() % UInt64(bytes.count))
                    switch generator.next() % 3 {
                    case 0: bytes[position] = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                    case 1: bytes.remove(at: position)
                    default: bytes.insert(alphabet[Int(generator.next() % UInt64(alphabet.count))], at: position)
                    }
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            guard let dictionary = try? SFParser.parseDictionary(text) else {
                _ = try? SignatureInput.parse(fieldValue: text)
                continue
            }
            parsed += 1
            let serialized = try dictionary.serialized()
            #expect(try SFParser.parseDictionary(serialized) == dictionary, "\(text)")
            _ = try? SignatureInput.parse(fieldValue: text)
        }
        #expect(parsed > 100)
    }
}
