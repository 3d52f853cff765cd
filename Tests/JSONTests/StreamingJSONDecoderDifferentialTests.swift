import Foundation
import JSON
import ServiceCore
import ServiceTesting
import Testing

/// Decodes one corpus of documents through ``KeyPathDecoding`` with the fast path (a default
/// `JSONDecoder`) and with Foundation alone, and expects the same values or the same errors.
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

    /// How one decode failed, as text that tells apart every error.
    struct Failure: Error, Equatable {
        var text: String
    }

    /// The outcome of one decode.
    private static func outcome<T: Decodable & Equatable>(
        _ type: T.Type,
        _ data: Data,
        keyPath: String?,
        decoder: JSONDecoder
    ) -> Result<T, Failure> {
        do {
            return .success(try KeyPathDecoding.decode(type, from: data, keyPath: keyPath, decoder: decoder))
        } catch {
            return .failure(Failure(text: "\(error) | \(KeyPathDecoding.explain(error))"))
        }
    }

    /// A decoder with a non-default setting that reads like the default one: Foundation only.
    private static func foundationOnly() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { try Date(from: $0) }
        return decoder
    }

    /// Compares both paths for one type; returns whether the fast decoder alone succeeded.
    ///
    /// A value with a dictionary inside is decoded in the dictionary's order, which differs from
    /// one decode to the next, so which of several faults Foundation reports is left unchecked.
    private static func compare<T: Decodable & Equatable>(
        _ type: T.Type,
        _ data: Data,
        keyPath: String?,
        context: String,
        unorderedErrors: Bool = false
    ) -> Bool {
        let viaFastPath = outcome(type, data, keyPath: keyPath, decoder: JSONDecoder())
        let viaFoundation = outcome(type, data, keyPath: keyPath, decoder: foundationOnly())
        switch (viaFastPath, viaFoundation) {
        case (.success(let fast), .success(let reference)):
            #expect(fast == reference, "\(T.self) \(context)")
        case (.failure(let fast), .failure(let reference)):
            #expect(unorderedErrors || fast == reference, "\(T.self) \(context)")
        default:
            Issue.record("\(T.self) \(context): \(viaFastPath) vs \(viaFoundation)")
        }
        let keys = keyPath.map { $0.split(separator: ".").map(String.init) } ?? []
        guard let fast = try? StreamingJSONDecoder().decode(type, from: data, keyPath: keys) else { return false }
        // Whenever the fast decoder succeeds on its own, Foundation succeeds with the same value.
        if case .success(let reference) = viaFoundation {
            #expect(fast == reference, "\(T.self) \(context)")
        } else {
            Issue.record("\(T.self) \(context): fast decoder succeeded where Foundation failed")
        }
        return true
    }

    /// Decodes `json` into every model, whole and wrapped at a key path; returns fast successes.
    private static func compareAll(_ json: String) -> Int {
        var successes = 0
        let wrapped = #"{"meta":{"page":1},"data":{"value":"# + json + "}}"
        for (text, keyPath) in [(json, nil as String?), (wrapped, "data.value")] {
            let data = Data(text.utf8)
            let context = "for \(text)"
            let results = [
                compare(Member.self, data, keyPath: keyPath, context: context),
                compare(Numbers.self, data, keyPath: keyPath, context: context),
                compare(Page.self, data, keyPath: keyPath, context: context),
                compare(Loose.self, data, keyPath: keyPath, context: context, unorderedErrors: true),
                compare(Shape.self, data, keyPath: keyPath, context: context),
                compare(Stamped.self, data, keyPath: keyPath, context: context),
                compare([Member].self, data, keyPath: keyPath, context: context),
                compare([String: Int?].self, data, keyPath: keyPath, context: context, unorderedErrors: true),
                compare(String.self, data, keyPath: keyPath, context: context),
                compare(Int.self, data, keyPath: keyPath, context: context),
                compare(Double?.self, data, keyPath: keyPath, context: context),
                compare([Int8].self, data, keyPath: keyPath, context: context),
                compare([UInt64?].self, data, keyPath: keyPath, context: context),
            ]
            successes += results.filter { $0 }.count
        }
        return successes
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

    @Test func bothPathsAgreeOnTheCorpus() {
        let corpus = Self.handWritten + Self.generated(count: 240)
        #expect(corpus.count >= 200)
        var successes = 0
        for json in corpus {
            successes += Self.compareAll(json)
        }
        // The corpus exercises the fast path itself, not only the fallback.
        #expect(successes > 400)
    }

    @Test func aDecoderWithOtherSettingsIsFoundationsAlone() throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        let data = Data(#"{"data":{"at":86400}}"#.utf8)
        let value = try KeyPathDecoding.decode(Stamped.self, from: data, keyPath: "data", decoder: decoder)
        #expect(value.at == Date(timeIntervalSince1970: 86400))

        let snake = JSONDecoder()
        snake.keyDecodingStrategy = .convertFromSnakeCase
        let member = try KeyPathDecoding.decode(
            Member.self,
            from: Data(#"{"id":"u","display_name":"D","follower_count":1,"following_count":2}"#.utf8),
            keyPath: nil,
            decoder: snake
        )
        #expect(member.displayName == "D")
    }

    @Test func fallbackGivesFoundationsResults() throws {
        // Duplicate keys: the fast decoder refuses, Foundation keeps the first.
        let duplicate = Data(#"{"id":"u","displayName":"D","followerCount":1,"followingCount":2,"id":"v"}"#.utf8)
        #expect((try? StreamingJSONDecoder().decode(Member.self, from: duplicate)) == nil)
        let viaFallback = try KeyPathDecoding.decode(Member.self, from: duplicate, keyPath: nil, decoder: JSONDecoder())
        #expect(viaFallback == (try JSONDecoder().decode(Member.self, from: duplicate)))

        // An integer written with a fraction: Foundation accepts it.
        let fraction = Data(#"{"data":{"int":2.0}}"#.utf8)
        #expect((try? StreamingJSONDecoder().decode(Numbers.self, from: fraction, keyPath: ["data"])) == nil)
        let numbers = try KeyPathDecoding.decode(Numbers.self, from: fraction, keyPath: "data", decoder: JSONDecoder())
        #expect(numbers.int == 2)

        // Date with the default strategy: Foundation's own reading.
        let date = Data(#"{"at":10.5,"blob":"AAE="}"#.utf8)
        let stamped = try KeyPathDecoding.decode(Stamped.self, from: date, keyPath: nil, decoder: JSONDecoder())
        #expect(stamped.at == Date(timeIntervalSinceReferenceDate: 10.5))
        #expect(stamped.blob == Data([0, 1]))

        // Errors stay Foundation's, with their coding path.
        let missing = Data(#"{"data":{"id":"u","displayName":"D","followerCount":1}}"#.utf8)
        #expect {
            try KeyPathDecoding.decode(Member.self, from: missing, keyPath: "data", decoder: JSONDecoder())
        } throws: { error in
            KeyPathDecoding.explain(error) == #"missing key "followingCount" at "data""#
        }
    }

    @Test func keyPathUserInfoIsTheSameOnBothPaths() throws {
        struct Info: Decodable {
            var keys: [String]
            init(from decoder: any Decoder) throws {
                keys = decoder.userInfo[CodingUserInfoKey(rawValue: "swifty.keyPath")!] as? [String] ?? []
            }
        }
        let data = Data(#"{"a":{"b":1}}"#.utf8)
        let fast = try KeyPathDecoding.decode(Info.self, from: data, keyPath: "a.b", decoder: JSONDecoder())
        let reference = try KeyPathDecoding.decode(
            Info.self, from: data, keyPath: "a.b", decoder: Self.foundationOnly())
        #expect(fast.keys == ["a", "b"])
        #expect(fast.keys == reference.keys)
    }
}
