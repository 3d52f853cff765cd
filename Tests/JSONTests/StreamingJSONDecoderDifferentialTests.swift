import Foundation
import JSON
import ServiceCore
import ServiceTesting
import Testing

/// Checks the engine against Foundation's `JSONDecoder` (the oracle of values) and the strict
/// rules written apart in ``ReferenceJSON``, on hand-written and seeded random documents.
struct StreamingJSONDecoderDifferentialTests {
    // MARK: Models

    struct Member: Decodable, Equatable, Sendable {
        var id: String
        var displayName: String
        var followerCount: Int
        var followingCount: Int
    }

    struct Numbers: Decodable, Sendable, Equatable {
        var int: Int
        var int8: Int8?
        var int16: Int16?
        var int32: Int32?
        var int64: Int64?
        var uint: UInt?
        var uint8: UInt8?
        var uint16: UInt16?
        var uint32: UInt32?
        var uint64: UInt64?
        var double: Double?
        var float: Float?
        var flag: Bool?

        static func == (lhs: Self, rhs: Self) -> Bool {
            // Bit patterns, so that 0.0 and -0.0 differ.
            lhs.int == rhs.int && lhs.int8 == rhs.int8 && lhs.int16 == rhs.int16 && lhs.int32 == rhs.int32
                && lhs.int64 == rhs.int64 && lhs.uint == rhs.uint && lhs.uint8 == rhs.uint8
                && lhs.uint16 == rhs.uint16 && lhs.uint32 == rhs.uint32 && lhs.uint64 == rhs.uint64
                && lhs.double?.bitPattern == rhs.double?.bitPattern && lhs.float?.bitPattern == rhs.float?.bitPattern
                && lhs.flag == rhs.flag
        }
    }

    struct Attachment: Decodable, Equatable, Sendable {
        var id: String
        var fileName: String
        var contentType: String
        var byteCount: Int
    }

    struct Post: Decodable, Equatable, Sendable {
        var id: String
        var authorId: String
        var text: String
        var createdAt: Date
        var likeCount: Int
        var attachments: [Attachment]

        private enum CodingKeys: String, CodingKey {
            case id, authorId, text, createdAt, likeCount, attachments
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            authorId = try container.decode(String.self, forKey: .authorId)
            text = try container.decode(String.self, forKey: .text)
            createdAt = try container.decodeRFC3339(forKey: .createdAt)
            likeCount = try container.decode(Int.self, forKey: .likeCount)
            attachments = try container.decodeIfPresent([Attachment].self, forKey: .attachments) ?? []
        }
    }

    struct Page: Decodable, Equatable, Sendable {
        var items: [Post]
        var nextCursor: String?
    }

    struct Loose: Decodable, Equatable, Sendable {
        var name: String?
        var tags: [String]?
        var scores: [Double?]?
        var map: [String: Int]?
        var nested: [[Int]]?
        var member: Member?
    }

    enum Shape: Decodable, Equatable, Sendable {
        case circle(radius: Int)
        case label(String)
        case empty
    }

    enum Mood: String, Decodable, Sendable { case happy, sad }

    struct Stamped: Decodable, Equatable, Sendable {
        var at: Date
        var blob: Data?
        var link: URL?
        var amount: Decimal?
        var mood: Mood?
    }

    // MARK: Comparing

    /// The oracle's view of a value wrapped as `{"meta":…,"data":{"value":…}}`.
    struct Wrapped<T: Decodable>: Decodable {
        struct Inner: Decodable { var value: T }
        var data: Inner
    }

    /// What one comparison found.
    enum Verdict { case sameValue, bothRefused, refusedByTheRules }

    /// Decodes one document with the engine and with Foundation's `JSONDecoder`, and checks the
    /// engine against the oracle and the reference rules (``ReferenceJSON``):
    /// - a document the rules refuse is refused by the engine;
    /// - else, what Foundation decodes the engine decodes to the same value, unless a number
    ///   the value reads breaks a number rule (fraction or exponent where Foundation converts
    ///   to an integer, or beyond the type's range);
    /// - what Foundation refuses the engine refuses.
    private static func compare<T: Decodable & Equatable>(
        _ type: T.Type,
        _ data: Data,
        wrapped: Bool,
        context: String
    ) -> Verdict {
        let engine = Result {
            try KeyPathDecoding.decode(
                type, from: data, keyPath: wrapped ? "data.value" : nil, decoder: StreamingJSONDecoder())
        }
        let oracle = Result {
            wrapped
                ? try JSONDecoder().decode(Wrapped<T>.self, from: data).data.value
                : try JSONDecoder().decode(T.self, from: data)
        }
        let reference: ReferenceJSON
        do {
            reference = try ReferenceJSON.parse(data)
        } catch {
            if case .success = engine { Issue.record("\(T.self) \(context): the engine accepted (\(error))") }
            return .bothRefused
        }
        switch (engine, oracle) {
        case (.success(let value), .success(let expected)):
            #expect(value == expected, "\(T.self) \(context)")
            return .sameValue
        case (.failure(let error), .success):
            guard let error = error as? DecodingError, case .dataCorrupted(let context) = error,
                case .number(let text)? = reference.value(at: context.codingPath), Self.breaksANumberRule(text)
            else {
                Issue.record("\(T.self) \(context): Foundation decoded, the engine refused: \(error)")
                return .bothRefused
            }
            return .refusedByTheRules
        case (.success, .failure(let error)):
            Issue.record("\(T.self) \(context): the engine decoded what Foundation refuses: \(error)")
            return .bothRefused
        case (.failure, .failure):
            return .bothRefused
        }
    }

    /// Whether a number breaks a rule Foundation does not have: a fraction or an exponent
    /// (Foundation converts `1.0` and `1e2` to integers), or a non-zero value that rounds to
    /// zero or to a subnormal `Float`, or beyond `Float`'s range.
    private static func breaksANumberRule(_ text: String) -> Bool {
        if text.contains(where: { ".eE".contains($0) }) { return true }
        guard let double = Double(text) else { return true }
        return Float(double).magnitude < Float.leastNormalMagnitude
            || double.magnitude > Double(Float.greatestFiniteMagnitude)
    }

    /// Decodes `json` into every model, whole and wrapped at a key path; counts the verdicts.
    private static func compareAll(_ json: String, into counts: inout [Verdict: Int]) {
        let wrapped = #"{"meta":{"page":1},"data":{"value":"# + json + "}}"
        for (text, isWrapped) in [(json, false), (wrapped, true)] {
            let data = Data(text.utf8)
            let context = "for \(text)"
            let verdicts = [
                compare(Member.self, data, wrapped: isWrapped, context: context),
                compare(Numbers.self, data, wrapped: isWrapped, context: context),
                compare(Page.self, data, wrapped: isWrapped, context: context),
                compare(Loose.self, data, wrapped: isWrapped, context: context),
                compare(Shape.self, data, wrapped: isWrapped, context: context),
                compare(Stamped.self, data, wrapped: isWrapped, context: context),
                compare([Member].self, data, wrapped: isWrapped, context: context),
                compare([String: Int?].self, data, wrapped: isWrapped, context: context),
                compare(String.self, data, wrapped: isWrapped, context: context),
                compare(Int.self, data, wrapped: isWrapped, context: context),
                compare(Double?.self, data, wrapped: isWrapped, context: context),
                compare([Int8].self, data, wrapped: isWrapped, context: context),
                compare([UInt64?].self, data, wrapped: isWrapped, context: context),
            ]
            for verdict in verdicts { counts[verdict, default: 0] += 1 }
        }
    }

    // MARK: Corpus

    static let handWritten: [String] = [
        #"{"id":"u1","displayName":"Ada","followerCount":3,"followingCount":4}"#,
        #"{"id":"u1","displayName":"Ada","followerCount":3}"#,
        #"{"id":"u1","displayName":null,"followerCount":3,"followingCount":4}"#,
        #"{"id":1,"displayName":"Ada","followerCount":3,"followingCount":4}"#,
        #"{"id":"u1","displayName":"Ada","followerCount":3.0,"followingCount":4}"#,
        #"{"id":"u1","displayName":"Ada","followerCount":3e0,"followingCount":4}"#,
        #"{"id":"u1","displayName":"Ada","followerCount":3,"followingCount":4,"followerCount":5}"#,
        #"{"id":"u1","displayName":"Ada","followerCount":3,"followingCount":4,}"#,
        #"{"id":"u1","displayName":"Ada","followerCount":3,"followingCount":4} x"#,
        #"  {"id" : "u\u0031" , "displayName":"A\nd\ta","followerCount" :-0,"followingCount":0}  "#,
        #"{"\u0069d":"u1","displayName":"Ada","followerCount":3,"followingCount":4}"#,
        #"{"id":"u1","displayName":"\ud83d\ude00","followerCount":3,"followingCount":4}"#,
        #"{"id":"u1","displayName":"\ud83d","followerCount":3,"followingCount":4}"#,
        "{\"id\":\"u1\",\"displayName\":\"é😀\u{301}\",\"followerCount\":3,\"followingCount\":4}",
        #"{"int":0}"#, #"{"int":-0}"#, #"{"int":9223372036854775807}"#, #"{"int":9223372036854775808}"#,
        #"{"int":-9223372036854775808}"#, #"{"int":-9223372036854775809}"#,
        #"{"int":1,"int8":127,"int16":-32768,"int32":2147483647,"int64":-9223372036854775808}"#,
        #"{"int":1,"int8":128}"#, #"{"int":1,"int8":-129}"#, #"{"int":1,"uint8":255,"uint16":65535}"#,
        #"{"int":1,"uint8":256}"#, #"{"int":1,"uint":-1}"#, #"{"int":1,"uint":-0}"#,
        #"{"int":1,"uint32":4294967295,"uint64":18446744073709551615}"#, #"{"int":1,"uint64":18446744073709551616}"#,
        #"{"int":1,"double":-0}"#, #"{"int":1,"double":-0.0,"float":-0.0}"#, #"{"int":1,"double":1e308}"#,
        #"{"int":1,"double":1e309}"#, #"{"int":1,"double":1e-400}"#, #"{"int":1,"double":5e-324}"#,
        #"{"int":1,"double":2.2250738585072011e-308}"#, #"{"int":1,"double":0.1,"float":0.1}"#,
        #"{"int":1,"float":3.4028235e38}"#, #"{"int":1,"float":3.4028236e38}"#, #"{"int":1,"float":1e-40}"#,
        #"{"int":1,"float":16777217}"#, #"{"int":1,"float":1.00000005960464477539062499}"#,
        #"{"int":1,"double":123456789012345678901234567890}"#, #"{"int":1,"double":1E+2,"float":2.5e-3}"#,
        #"{"int":1,"double":0.30000000000000004,"float":0.300000011920928955078125}"#,
        #"{"int":1,"flag":true}"#, #"{"int":1,"flag":1}"#, #"{"int":1,"flag":"true"}"#, #"{"int":1.5}"#,
        #"{"int":01}"#, #"{"int":1.}"#, #"{"int":.5}"#, #"{"int":+1}"#, #"{"int":1e}"#, #"{"int":0x10}"#,
        #"{"int":1,"double":NaN}"#, #"{"int":1,"double":Infinity}"#,
        #"{"items":[],"nextCursor":null}"#, #"{"items":[]}"#, #"{"items":null}"#,
        #"{"items":[{"id":"p","authorId":"a","text":"t","createdAt":"2026-03-01T12:00:00Z","likeCount":1}],"nextCursor":"c"}"#,
        #"{"items":[{"id":"p","authorId":"a","text":"t","createdAt":"not a date","likeCount":1}]}"#,
        #"{"items":[{"id":"p","authorId":"a","text":"t","createdAt":"2026-03-01T12:00:00.250+01:00","likeCount":1,"attachments":[{"id":"f","fileName":"a.png","contentType":"image/png","byteCount":10}]}]}"#,
        #"{"items":[{"id":"p","authorId":"a","text":"t","createdAt":"2026-03-01T12:00:00Z","likeCount":1,"attachments":null}]}"#,
        #"{"items":[{"id":"p","authorId":"a","text":"t","createdAt":"2026-03-01T12:00:00Z","likeCount":1,"attachments":[{}]}]}"#,
        #"{}"#, #"[]"#, #"null"#, #"true"#, #"false"#, #""text""#, #""""#, #"42"#, #"-1"#, #"1.5"#, #"-0"#,
        #"[1,2,3]"#, #"[1,null,3]"#, #"[127,-128]"#, #"[128]"#, #"[1,]"#, #"[,1]"#, #"[[1]]"#, #"[1 2]"#,
        #"[18446744073709551615,null]"#, #"[-1]"#, #"[1.0]"#,
        #"{"name":"n","tags":["a","b"],"scores":[1.5,null,-0],"map":{"a":1,"b":2},"nested":[[1],[],[2,3]]}"#,
        #"{"name":null,"tags":null,"scores":null,"map":null,"nested":null,"member":null}"#,
        #"{"map":{"a":1,"a":2}}"#, #"{"map":{"a":1,"b":null}}"#, #"{"map":{"":1}}"#, #"{"map":{"K":1}}"#,
        #"{"map":{"\u212a":1}}"#, "{\"map\":{\"\u{212A}\":1,\"K\":2}}", #"{"tags":["\u0000","\/","\\"]}"#,
        #"{"nested":[[1],[2,[3]]]}"#, #"{"member":{"id":"m","displayName":"M","followerCount":1,"followingCount":2}}"#,
        #"{"circle":{"radius":2}}"#, #"{"label":{"_0":"x"}}"#, #"{"empty":{}}"#, #"{"circle":{"radius":2},"empty":{}}"#,
        #"{"square":{}}"#, #"{"circle":{}}"#,
        #"{"at":0}"#, #"{"at":1.5,"blob":"AAE=","link":"https://example.com/a","amount":1.25,"mood":"happy"}"#,
        #"{"at":"2026-01-01","mood":"angry"}"#, #"{"at":0,"blob":"not base64"}"#, #"{"at":0,"link":""}"#,
        #"{"a":1,"b":2,"c":3}"#, #"{"a":null}"#, #"{"a":1,"b":"x"}"#,
        "\u{FEFF}{\"id\":\"u1\",\"displayName\":\"Ada\",\"followerCount\":3,\"followingCount\":4}",
        "{\"id\":\"u1\",\"displayName\":\"A\u{1}\",\"followerCount\":3,\"followingCount\":4}",
        "{\"id\":\"u1\",\"displayName\":\"Ada\",\"followerCount\":3,\"followingCount\":4}\u{0}",
        "", " ", "\n", "nul", "tru", "[", "{", "}", "\"", "\"\\u12\"", "\"\\q\"",
    ]

    static func space(_ random: inout SplitMix64) -> String {
        ["", "", "", " ", "\n  ", "\t", "\r\n"].randomElement(using: &random)!
    }

    static func string(_ random: inout SplitMix64) -> String {
        let pieces = [
            "a", "Ada", "x y", "\\n", "\\\"", "\\\\", "\\/", "\\u00e9", "\\u20AC", "\\ud83d\\ude00", "é", "😀",
            "e\u{301}", "\\t", "0", "true", "\\u0000", "long text with several words",
        ]
        let count = Int.random(in: 0...3, using: &random)
        return "\"" + (0..<count).map { _ in pieces.randomElement(using: &random)! }.joined() + "\""
    }

    static func number(_ random: inout SplitMix64) -> String {
        switch Int.random(in: 0..<8, using: &random) {
        case 0: return String(Int.random(in: -1000...1000, using: &random))
        case 1: return String(Int64.random(in: .min ... .max, using: &random))
        case 2: return String(UInt64.random(in: 0 ... .max, using: &random))
        case 3:
            return [
                "0", "-0", "127", "128", "-128", "-129", "255", "256", "65535", "65536", "2147483647",
                "4294967295", "9223372036854775807", "9223372036854775808", "18446744073709551615",
            ]
            .randomElement(using: &random)!
        case 4: return "\(Double.random(in: -1e6...1e6, using: &random))"
        case 5:
            let mantissa = Int.random(in: 1...99_999_999, using: &random)
            return "\(mantissa)e\(Int.random(in: -330...310, using: &random))"
        case 6: return "0.\(UInt64.random(in: 0 ... .max, using: &random))\(Int.random(in: 0...9, using: &random))"
        default: return ["1.0", "1e2", "-1.5E+3", "3.4028235e38", "1e-45", "2.5"].randomElement(using: &random)!
        }
    }

    static func value(_ random: inout SplitMix64, depth: Int) -> String {
        let choice = Int.random(in: 0..<(depth > 3 ? 6 : 9), using: &random)
        switch choice {
        case 0: return "null"
        case 1: return Bool.random(using: &random) ? "true" : "false"
        case 2, 3: return number(&random)
        case 4, 5: return string(&random)
        case 6: return member(&random)
        case 7:
            let count = Int.random(in: 0...4, using: &random)
            let elements = (0..<count).map { _ in space(&random) + value(&random, depth: depth + 1) + space(&random) }
            return "[" + elements.joined(separator: ",") + "]"
        default:
            let keys = [
                "a", "b", "name", "tags", "scores", "map", "nested", "member", "int", "double", "float",
                "int8", "uint64", "flag", "circle", "radius", "items", "nextCursor", "id",
            ]
            let count = Int.random(in: 0...5, using: &random)
            let members = (0..<count).map { _ in
                "\"\(keys.randomElement(using: &random)!)\"" + space(&random) + ":" + space(&random)
                    + value(&random, depth: depth + 1)
            }
            return "{" + members.joined(separator: "," + space(&random)) + "}"
        }
    }

    /// A member-shaped object, mostly valid, sometimes with a wrong or missing field.
    static func member(_ random: inout SplitMix64) -> String {
        var fields = [
            "\"id\":" + string(&random),
            "\"displayName\":" + string(&random),
            "\"followerCount\":" + (Int.random(in: 0..<5, using: &random) == 0 ? number(&random) : "12"),
            "\"followingCount\":" + (Int.random(in: 0..<8, using: &random) == 0 ? "null" : "7"),
        ]
        if Int.random(in: 0..<6, using: &random) == 0 { fields.removeLast() }
        fields.shuffle(using: &random)
        return "{" + fields.joined(separator: "," + space(&random)) + "}"
    }

    static func generated(count: Int) -> [String] {
        // Seeded, so every run decodes the same corpus.
        var random = SplitMix64(seed: 0x5EED_2026)
        return (0..<count).map { index in
            switch index % 4 {
            case 0: return member(&random)
            case 1:
                return "["
                    + (0..<Int.random(in: 0...3, using: &random)).map { _ in member(&random) }
                    .joined(separator: ",") + "]"
            case 2:
                let fields = ["int", "int8", "int16", "uint", "uint8", "uint64", "double", "float"]
                    .filter { _ in Bool.random(using: &random) }
                    .map { "\"\($0)\":\(number(&random))" }
                return "{\"int\":\(number(&random))" + fields.map { "," + $0 }.joined() + "}"
            default: return value(&random, depth: 0)
            }
        }
    }

    // MARK: Tests

    @Test func theEngineAgreesWithFoundationAndTheRules() async {
        let corpus = Self.handWritten + Self.generated(count: 240)
        #expect(corpus.count >= 200)
        var counts: [Verdict: Int] = [:]
        for json in corpus {
            Self.compareAll(json, into: &counts)
            // CPU-bound: let the other tests' tasks run between documents.
            await Task.yield()
        }
        // The corpus exercises every outcome, decoded values above all.
        #expect(counts[.sameValue, default: 0] > 400)
        #expect(counts[.bothRefused, default: 0] > 100)
        #expect(counts[.refusedByTheRules, default: 0] > 10)
    }

    @Test func whatTheRulesForbidIsRefused() throws {
        let member = #""id":"u","displayName":"D","followerCount":1,"followingCount":2"#
        let forbidden: [(String, Data)] = [
            ("a repeated member", Data("{\(member),\"id\":\"v\"}".utf8)),
            ("a repeated member spelled with an escape", Data("{\(member),\"\\u0069d\":\"v\"}".utf8)),
            ("a byte-order mark", Data([0xEF, 0xBB, 0xBF]) + Data("{\(member)}".utf8)),
            ("invalid UTF-8", Data("{\(member),\"x\":\"".utf8) + Data([0xC3, 0x28]) + Data("\"}".utf8)),
            ("a lone surrogate", Data("{\(member),\"x\":\"\\udc00\"}".utf8)),
            (
                "deep nesting",
                Data(
                    "{\(member),\"x\":\(String(repeating: "[", count: 300))\(String(repeating: "]", count: 300))}".utf8)
            ),
        ]
        for (rule, data) in forbidden {
            #expect(throws: ReferenceJSON.Refusal.self, "\(rule)") { try ReferenceJSON.parse(data) }
            #expect(throws: DecodingError.self, "\(rule)") {
                try StreamingJSONDecoder().decode(Member.self, from: data)
            }
        }
        // Foundation reads these; the contract does not.
        for json in [#"{"int":2.0}"#, #"{"int":1e2}"#] {
            let data = Data(json.utf8)
            #expect(try JSONDecoder().decode(Numbers.self, from: data).int > 0)
            #expect(throws: DecodingError.self) { try StreamingJSONDecoder().decode(Numbers.self, from: data) }
        }
        // Members a value does not name are ignored.
        let extra = Data("{\(member),\"unknown\":[1,{\"a\":null}]}".utf8)
        #expect(try StreamingJSONDecoder().decode(Member.self, from: extra).id == "u")
    }

    @Test func errorsCarryTheCodingPath() throws {
        let missing = Data(#"{"data":{"id":"u","displayName":"D","followerCount":1}}"#.utf8)
        #expect {
            try KeyPathDecoding.decode(Member.self, from: missing, keyPath: "data", decoder: StreamingJSONDecoder())
        } throws: { error in
            KeyPathDecoding.explain(error) == #"missing key "followingCount" at "data""#
        }
        let wrong = Data(#"{"items":[{"id":"p","authorId":"a","text":"t","createdAt":"x","likeCount":1.5}]}"#.utf8)
        #expect {
            try StreamingJSONDecoder().decode(Page.self, from: wrong)
        } throws: { error in
            guard case .dataCorrupted(let context) = error as? DecodingError else { return false }
            return context.codingPath.map(\.stringValue) == ["items", "Index 0", "createdAt"]
        }
    }

    @Test func otherDateSettingsMatchFoundations() throws {
        let pairs: [(StreamingJSONDecoder.DateDecoding, JSONDecoder.DateDecodingStrategy, String)] = [
            (.secondsSince1970, .secondsSince1970, "86400.5"),
            (.millisecondsSince1970, .millisecondsSince1970, "86400500"),
            (.iso8601, .iso8601, #""2026-03-01T12:00:00Z""#),
            (.iso8601, .iso8601, #""2026-03-01T12:00:00+02:00""#),
            (.deferredToDate, .deferredToDate, "-12.25"),
        ]
        for (setting, strategy, text) in pairs {
            let foundation = JSONDecoder()
            foundation.dateDecodingStrategy = strategy
            let data = Data("{\"at\":\(text)}".utf8)
            let expected = try foundation.decode(Stamped.self, from: data)
            #expect(try StreamingJSONDecoder(dateDecoding: setting).decode(Stamped.self, from: data) == expected)
        }
    }
}
