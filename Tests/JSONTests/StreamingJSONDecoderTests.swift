import Foundation
import JSON
import Testing

struct StreamingJSONDecoderTests {
    struct Member: Codable, Equatable, Sendable {
        var id: String
        var displayName: String
        var followerCount: Int
        var followingCount: Int
    }

    struct Everything: Decodable, Equatable, Sendable {
        enum Kind: String, Decodable, Sendable { case a, b }
        var name: String
        var optional: String?
        var absent: Int?
        var kind: Kind
        var tags: [String]
        var matrix: [[Int]]
        var children: [Member]
        var map: [String: Int]
        var flag: Bool
        var ratio: Double
        var small: Float
    }

    private func decode<T: Decodable>(_ type: T.Type, _ json: String, keyPath: [String] = []) throws -> T {
        try StreamingJSONDecoder().decode(type, from: Data(json.utf8), keyPath: keyPath)
    }

    private func rejects<T: Decodable>(_ type: T.Type, _ json: String) -> Bool {
        (try? decode(type, json)) == nil
    }

    @Test func decodesAFlatObject() throws {
        let json = #"{"id":"u1","displayName":"Ada","followerCount":3,"followingCount":4}"#
        #expect(
            try decode(Member.self, json) == Member(id: "u1", displayName: "Ada", followerCount: 3, followingCount: 4))
    }

    @Test func findsMembersInAnyOrderAndIgnoresOthers() throws {
        let json = #"{"x":[1,{"y":null}],"followingCount":4,"displayName":"Ada","followerCount":3,"id":"u1","z":{}}"#
        #expect(
            try decode(Member.self, json) == Member(id: "u1", displayName: "Ada", followerCount: 3, followingCount: 4))
    }

    @Test func decodesNestedContainersOptionalsAndCollections() throws {
        let json = """
            { "name": "root", "optional": null, "kind": "b", "tags": ["x", "y"], "matrix": [[1, 2], [], [3]],
              "children": [{"id": "c", "displayName": "C", "followerCount": 0, "followingCount": -1}],
              "map": {"k": 1, "l": 2}, "flag": true, "ratio": 0.5, "small": 2.5 }
            """
        let value = try decode(Everything.self, json)
        #expect(value.name == "root")
        #expect(value.optional == nil)
        #expect(value.absent == nil)
        #expect(value.kind == .b)
        #expect(value.tags == ["x", "y"])
        #expect(value.matrix == [[1, 2], [], [3]])
        #expect(value.children == [Member(id: "c", displayName: "C", followerCount: 0, followingCount: -1)])
        #expect(value.map == ["k": 1, "l": 2])
        #expect(value.flag)
        #expect(value.ratio == 0.5)
        #expect(value.small == 2.5)
    }

    struct Walk: Decodable, Equatable {
        var keys: Set<String>
        var hasA: Bool
        var hasZ: Bool
        var aIsNil: Bool
        var list: [Int?]
        var listCount: Int?
        var single: String
        var innerPath: [String]
        var elementPath: [String]
        var info: String?

        private struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int?
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) {
                self.stringValue = "\(intValue)"
                self.intValue = intValue
            }
        }

        static let infoKey = CodingUserInfoKey(rawValue: "test.info")!

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            keys = Set(container.allKeys.map(\.stringValue))
            hasA = container.contains(AnyKey(stringValue: "a"))
            hasZ = container.contains(AnyKey(stringValue: "z"))
            aIsNil = try container.decodeNil(forKey: AnyKey(stringValue: "a"))
            var unkeyed = try container.nestedUnkeyedContainer(forKey: AnyKey(stringValue: "list"))
            listCount = unkeyed.count
            var list: [Int?] = []
            while !unkeyed.isAtEnd {
                list.append(try unkeyed.decodeNil() ? nil : try unkeyed.decode(Int.self))
            }
            self.list = list
            let inner = try container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey(stringValue: "inner"))
            innerPath = inner.codingPath.map(\.stringValue)
            single = try inner.decode(Single.self, forKey: AnyKey(stringValue: "s")).text
            var objects = try container.nestedUnkeyedContainer(forKey: AnyKey(stringValue: "objects"))
            _ = try objects.decodeNil()
            let nested = try objects.nestedContainer(keyedBy: AnyKey.self)
            elementPath = nested.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            info = decoder.userInfo[Walk.infoKey] as? String
        }
    }

    struct Single: Decodable {
        var text: String
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            text = container.decodeNil() ? "null" : try container.decode(String.self)
        }
    }

    @Test func everyContainerKindMatchesFoundation() throws {
        let json = #"{"a":null,"list":[null,2,null,-3],"inner":{"s":"text"},"objects":[null,{"k":1}]}"#
        let fast = try StreamingJSONDecoder(userInfo: [Walk.infoKey: "passed"])
            .decode(Walk.self, from: Data(json.utf8))
        let foundation = JSONDecoder()
        foundation.userInfo[Walk.infoKey] = "passed"
        let reference = try foundation.decode(Walk.self, from: Data(json.utf8))
        #expect(fast == reference)
        #expect(fast.keys == ["a", "list", "inner", "objects"])
        #expect(fast.hasA && !fast.hasZ && fast.aIsNil)
        #expect(fast.list == [nil, 2, nil, -3])
        #expect(fast.listCount == 4)
        #expect(fast.single == "text")
        #expect(fast.innerPath == ["inner"])
        #expect(fast.elementPath == ["objects", "[1]"])
        #expect(fast.info == "passed")
    }

    @Test func decodesEscapesAndUnicode() throws {
        #expect(try decode(String.self, #""a\"b\\c\/d\b\f\n\r\t""#) == "a\"b\\c/d\u{8}\u{c}\n\r\t")
        #expect(try decode(String.self, #""\u0041\u00e9\u20ac\ud83d\ude00\u0000""#) == "Aé€😀\u{0}")
        #expect(try decode(String.self, "\"é€😀 e\u{301}\"") == "é€😀 e\u{301}")
        #expect(try decode([String].self, #"["", " ", "\u00E9"]"#) == ["", " ", "é"])
        #expect(
            try decode(String.self, #""\ud83d\ude00 and more text after the pair""#) == "😀 and more text after the pair"
        )
    }

    @Test func findsSpecialBytesAtEveryOffsetOfLongStrings() throws {
        for offset in 0..<20 {
            let before = String(repeating: "a", count: offset)
            let after = String(repeating: "b", count: 19 - offset)
            #expect(try decode(String.self, "\"\(before)\\n\(after)\"") == before + "\n" + after)
            #expect(try decode(String.self, "\"\(before)\\\"\(after)\"") == before + "\"" + after)
            #expect(try decode(String.self, "\"\(before)é\(after)\"") == before + "é" + after)
            #expect(try decode([String].self, "[\"\(before)\",\"\(after)\"]") == [before, after])
            #expect(rejects(String.self, "\"\(before)\u{1}\(after)\""))
            #expect(rejects(String.self, "\"\(before)\(after)"))
        }
    }

    @Test func rejectsBrokenStrings() {
        #expect(rejects(String.self, #""\ud800""#))
        #expect(rejects(String.self, #""\udc00""#))
        #expect(rejects(String.self, #""\ud800\u0041""#))
        #expect(rejects(String.self, #""\x""#))
        #expect(rejects(String.self, "\"a\u{1}b\""))
        #expect(rejects(String.self, "\"abc"))
        for bytes: [UInt8] in [
            [0x22, 0xC0, 0x80, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xFF, 0x22], [0x22, 0xE2, 0x82],
        ] {
            #expect((try? StreamingJSONDecoder().decode(String.self, from: Data(bytes))) == nil)
        }
    }

    @Test func decodesIntegersAtTheirLimits() throws {
        #expect(try decode(Int8.self, "127") == .max)
        #expect(try decode(Int8.self, "-128") == .min)
        #expect(try decode(Int16.self, "-32768") == .min)
        #expect(try decode(Int32.self, "2147483647") == .max)
        #expect(try decode(Int64.self, "-9223372036854775808") == .min)
        #expect(try decode(Int.self, "9223372036854775807") == .max)
        #expect(try decode(UInt8.self, "255") == .max)
        #expect(try decode(UInt16.self, "65535") == .max)
        #expect(try decode(UInt32.self, "4294967295") == .max)
        #expect(try decode(UInt64.self, "18446744073709551615") == .max)
        #expect(try decode(UInt.self, "0") == 0)
        #expect(try decode(Int.self, "-0") == 0)
        #expect(rejects(Int8.self, "128"))
        #expect(rejects(Int8.self, "-129"))
        #expect(rejects(UInt8.self, "256"))
        #expect(rejects(UInt.self, "-1"))
        #expect(rejects(Int.self, "9223372036854775808"))
        #expect(rejects(UInt64.self, "18446744073709551616"))
        #expect(rejects(UInt64.self, "184467440737095516150"))
        // Numbers an integer type would have to convert: Foundation decides.
        #expect(rejects(Int.self, "1.0"))
        #expect(rejects(Int.self, "1e2"))
    }

    @Test func decodesFloatingPointAsFoundationDoes() throws {
        let doubles = [
            "0", "-0", "1", "-1.5", "0.1", "1e10", "1E-5", "2.5e+3", "123456789012345678", "0.30000000000000004",
            "1.7976931348623157e308", "2.2250738585072014e-308", "0e-999", "9007199254740993",
        ]
        for text in doubles {
            let fast = try decode(Double.self, text)
            let reference = try JSONDecoder().decode(Double.self, from: Data(text.utf8))
            #expect(fast.bitPattern == reference.bitPattern, "\(text)")
        }
        let floats = ["0", "-0", "1", "-1.5", "0.1", "1e10", "1E-5", "16777217", "3.4028235e38", "1.1754944e-38"]
        for text in floats {
            let fast = try decode(Float.self, text)
            let reference = try JSONDecoder().decode(Float.self, from: Data(text.utf8))
            #expect(fast.bitPattern == reference.bitPattern, "\(text)")
        }
        #expect(try decode(Double.self, "-0").sign == .minus)
        #expect(rejects(Double.self, "1e400"))
        #expect(rejects(Double.self, "1e-400"))
        #expect(rejects(Float.self, "1e39"))
        #expect(rejects(Float.self, "1e-50"))
    }

    @Test func rejectsMalformedDocuments() {
        for json in [
            "", " ", "01", "1.", ".5", "+1", "-", "1e", "1 2", "[1,]", #"{"a":1,}"#, "[1", "{", #"{"a"}"#,
            #"{"a":1 "b":2}"#, "tru", "nul", "nulll", "\u{FEFF}1", "\u{c}1", "[1]x", "{}}", #"{1:2}"#,
        ] {
            #expect(
                rejects([String: Int].self, json) && rejects(Int.self, json) && rejects([Int].self, json), "\(json)")
        }
    }

    @Test func appliesTheStrictRules() {
        #expect(rejects([String: Int].self, #"{"a":1,"a":2}"#))
        let many = (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        #expect((try? decode([String: Int].self, "{\(many)}"))?.count == 40)
        #expect(rejects([String: Int].self, "{\(many),\"k7\":0}"))
        // Names are compared once unescaped.
        #expect(rejects([String: Int].self, #"{"a":1,"\u0061":2}"#))
        #expect(rejects([String: Int].self, #"{"\u00e9":1,"é":2}"#))
        // Canonically equivalent names are one name to a CodingKey: refused too.
        #expect(rejects([String: Int].self, "{\"\u{212A}\":1,\"K\":2}"))
        #expect(rejects([String: Int].self, "{\"e\u{301}\":1,\"\u{E9}\":2}"))
        #expect(rejects(Int.self, "100.0"))
        #expect(rejects(Int.self, "1e2"))
        #expect(rejects(Data.self, #""not base64!""#))
        #expect(rejects(Date.self, #""0""#))
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(rejects([Int].self, deep))
        let bom = Data([0xEF, 0xBB, 0xBF]) + Data("1".utf8)
        #expect((try? StreamingJSONDecoder().decode(Int.self, from: bom)) == nil)
    }

    @Test func decodesKeysWithEscapesAndNonASCII() throws {
        #expect(
            try decode([String: Int].self, #"{"\u0061":1,"é":2,"\u00e8":3,"日本":4}"#) == [
                "a": 1, "é": 2, "è": 3, "日本": 4,
            ])
        struct Named: Decodable, Equatable {
            var café: Int
            var line: String
            private enum CodingKeys: String, CodingKey {
                case café
                case line = "a\nb"
            }
        }
        #expect(try decode(Named.self, #"{"caf\u00e9":1,"a\nb":"x"}"#) == Named(café: 1, line: "x"))
    }

    @Test func decodesFoundationTypes() throws {
        let when = Date(timeIntervalSince1970: 1_764_482_400)
        #expect(try decode(Date.self, "\(when.timeIntervalSinceReferenceDate)") == when)
        let iso = StreamingJSONDecoder(dateDecoding: .iso8601)
        #expect(try iso.decode(Date.self, from: Data(#""2025-11-30T06:00:00Z""#.utf8)) == when)
        #expect(try iso.decode(Date.self, from: Data(#""2025-11-30T07:00:00+01:00""#.utf8)) == when)
        #expect(throws: DecodingError.self) { try iso.decode(Date.self, from: Data(#""yesterday""#.utf8)) }
        let seconds = StreamingJSONDecoder(dateDecoding: .secondsSince1970)
        #expect(try seconds.decode(Date.self, from: Data("1764482400".utf8)) == when)
        let milliseconds = StreamingJSONDecoder(dateDecoding: .millisecondsSince1970)
        #expect(try milliseconds.decode(Date.self, from: Data("1764482400000".utf8)) == when)
        #expect(try decode(Data.self, #""AAEC/w==""#) == Data([0, 1, 2, 255]))
        #expect(try decode(URL.self, #""https://example.com/a?b=c""#) == URL(string: "https://example.com/a?b=c"))
        #expect(try decode(Decimal.self, "12.345") == Decimal(string: "12.345"))
        #expect(try decode(Int128.self, "-170141183460469231731687303715884105728") == .min)
        #expect(try decode(UInt128.self, "340282366920938463463374607431768211455") == .max)
        #expect(rejects(UInt128.self, "340282366920938463463374607431768211456"))
        #expect(rejects(Int128.self, "1.5"))
    }

    @Test func errorsNameTheValueAndTheRule() {
        func error<T: Decodable>(_ type: T.Type, _ json: String) -> String {
            do {
                _ = try decode(type, json)
                return "no error"
            } catch {
                return KeyPathDecoding.explain(error)
            }
        }
        #expect(error(Member.self, #"{"id":"u"}"#) == #"missing key "displayName" at the top level"#)
        #expect(
            error([Member].self, #"[{"id":1,"displayName":"D","followerCount":1,"followingCount":2}]"#)
                == #"expected String at "[0].id""#)
        #expect(
            error([String: Int].self, #"{"n":1.5}"#)
                == #"expected an integer without fraction or exponent, found 1.5 at "n""#)
        #expect(error([String: UInt8].self, #"{"n":300}"#) == #"the number 300 does not fit in UInt8 at "n""#)
        #expect(
            error([String: Int].self, #"{"n":1,"n":2}"#)
                == "not valid JSON: duplicate member name \"n\" at byte 8 at the top level")
        #expect(error([String].self, #"[null]"#) == #"expected String but found null at "[0]""#)
    }

    struct Forgiving: Decodable {
        var value: Int?
        private enum CodingKeys: String, CodingKey { case value }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            value = try? container.decode(Int.self, forKey: .value)
        }
    }

    struct Super: Decodable, Equatable {
        var text: String
        private enum CodingKeys: String, CodingKey { case inner }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            text = try container.superDecoder(forKey: .inner).singleValueContainer().decode(String.self)
        }
    }

    @Test func superDecoderReadsTheMember() throws {
        let data = Data(#"{"inner":"x"}"#.utf8)
        #expect(try StreamingJSONDecoder().decode(Super.self, from: data).text == "x")
        let foundation = try JSONDecoder().decode(Super.self, from: data)
        #expect(foundation.text == "x")
    }

    @Test func anErrorCaughtByTheValueIsTheValuesChoice() throws {
        // 1.0 is not an integer under the strict rules; the value chose to take that as nil.
        #expect(try decode(Forgiving.self, #"{"value":1.0}"#).value == nil)
        #expect(try decode(Forgiving.self, #"{"value":1}"#).value == 1)
    }

    @Test func decodesTopLevelFragmentsAndWhitespace() throws {
        #expect(try decode(String.self, " \"x\" ") == "x")
        #expect(try decode(Int.self, "\n\t 42 \r\n") == 42)
        #expect(try decode(Bool.self, "false") == false)
        #expect(try decode(Int?.self, "null") == nil)
        #expect(try decode([Int].self, "[ ]") == [])
        #expect(try decode([String: Int].self, "{ }") == [:])
    }

    @Test func decodesAtAKeyPath() throws {
        let json =
            #"{"meta":{"n":1},"data":{"user":{"id":"u","displayName":"D","followerCount":1,"followingCount":2}}}"#
        let user = try decode(Member.self, json, keyPath: ["data", "user"])
        #expect(user == Member(id: "u", displayName: "D", followerCount: 1, followingCount: 2))
        #expect(try decode(Int.self, json, keyPath: ["meta", "n"]) == 1)
        #expect(throws: (any Error).self) { try decode(Int.self, json, keyPath: ["meta", "missing"]) }
        #expect(throws: (any Error).self) { try decode(Int.self, json, keyPath: ["data", "user", "id", "x"]) }
    }

    @Test func decodesLargeDocuments() throws {
        let members = (0..<2_000).map {
            Member(id: "id\($0)", displayName: "Name \u{e9} \($0)", followerCount: $0, followingCount: -$0)
        }
        let data = try JSONEncoder().encode(members)
        #expect(try StreamingJSONDecoder().decode([Member].self, from: data) == members)
    }
}
