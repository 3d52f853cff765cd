import Foundation
import JSON
import Testing

/// Byte-exact output of ``StreamingJSONEncoder`` for the shapes its fast paths handle: the
/// expected texts were produced by the encoder before those paths existed.
struct StreamingJSONEncoderGoldenTests {
    struct Charge: Encodable {
        var payer = "alice"
        var payee = "bob"
        var amountMinor: Int64 = 12_345
        var currency = "EUR"
        var memo = "Dinner at the corner place, split three ways, thanks for organising it!"
        var reference = "inv-2026-11-30-000042"
        var tags = ["food", "friends"]
    }

    /// Asks for its container twice and hands its encoder to a child, as wrappers do.
    struct Flattened: Encodable {
        enum Keys: String, CodingKey { case outer }
        var inner = Charge()
        func encode(to encoder: any Encoder) throws {
            var first = encoder.container(keyedBy: Keys.self)
            try first.encode("o", forKey: .outer)
            try inner.encode(to: encoder)
            var again = encoder.container(keyedBy: Keys.self)
            try again.encode("again", forKey: .outer)
        }
    }

    /// Writes through an unkeyed container and reads its count between elements.
    struct Counted: Encodable {
        func encode(to encoder: any Encoder) throws {
            var list = encoder.unkeyedContainer()
            try list.encode(list.count)
            try list.encode("two")
            try list.encode(list.count)
            var nested = list.nestedUnkeyedContainer()
            try nested.encode(nested.count)
            try list.encode(list.count)
            var keyed = list.nestedContainer(keyedBy: StreamingJSONEncoderGoldenTests.Key.self)
            try keyed.encode(["a", "b"], forKey: .init("k"))
            try keyed.encodeNil(forKey: .init("n"))
        }
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    struct Arrays: Encodable {
        var strings = ["a\"b", "", "c\\d\u{1}", "é😀"]
        var ints = [Int.min, -1, 0, Int.max]
        var int64s: [Int64] = [5, -5]
        var doubles = [0.5, -2, 1e-7, 1e300]
        var bools = [true, false]
        var empty: [String] = []
        var nested = [["x"], [], ["y", "z"]]
        var optionals: [String?] = ["a", nil]
        var set: [Set<Int>] = [[3]]
    }

    struct Wrapper: Encodable {
        enum Level: String, Encodable { case high }
        var level = Level.high
        var single = Single()
        var dictionary = ["only": [1, 2]]
        var optional: Int? = nil
        var present: Int? = 3
    }

    struct Single: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(["s", "t"])
        }
    }

    static let charge =
        #"{"payer":"alice","payee":"bob","amountMinor":12345,"currency":"EUR","#
        + #""memo":"Dinner at the corner place, split three ways, thanks for organising it!","#
        + #""reference":"inv-2026-11-30-000042","tags":["food","friends"]}"#

    static func text(_ value: some Encodable) throws -> String {
        String(decoding: try StreamingJSONEncoder().encode(value), as: UTF8.self)
    }

    @Test func flatStructWithAnArrayOfStrings() throws {
        #expect(try Self.text(Charge()) == Self.charge)
    }

    @Test func containerAskedTwiceAndEncoderSharedWithAChild() throws {
        let inner = Self.charge.dropFirst().dropLast()
        #expect(try Self.text(Flattened()) == #"{"outer":"o","# + inner + #","outer":"again"}"#)
    }

    @Test func unkeyedCountsAndNestedContainers() throws {
        #expect(try Self.text(Counted()) == #"[0,"two",2,[0],4,{"k":["a","b"],"n":null}]"#)
    }

    @Test func arraysOfEveryCommonElementType() throws {
        let expected =
            #"{"strings":["a\"b","","c\\d\u0001","é😀"],"ints":[-9223372036854775808,-1,0,9223372036854775807],"#
            + #""int64s":[5,-5],"doubles":[0.5,-2,1e-07,1e+300],"bools":[true,false],"empty":[],"#
            + #""nested":[["x"],[],["y","z"]],"optionals":["a",null],"set":[[3]]}"#
        #expect(try Self.text(Arrays()) == expected)
    }

    @Test func singleValuesDictionariesAndOptionals() throws {
        #expect(
            try Self.text(Wrapper()) == #"{"level":"high","single":["s","t"],"dictionary":{"only":[1,2]},"present":3}"#)
    }

    @Test func topLevelArrays() throws {
        #expect(try Self.text(["p", "q\n"]) == #"["p","q\n"]"#)
        #expect(try Self.text([1, 2, 3]) == "[1,2,3]")
        #expect(try Self.text([String]()) == "[]")
        #expect(try Self.text([[Charge()], []]) == "[[" + Self.charge + "],[]]")
    }

    /// Outputs far larger than the first buffer, so it grows while strings and objects are written.
    @Test func outputsThatOutgrowTheBuffer() throws {
        let long = String(repeating: "0123456789\"", count: 120)
        let escaped = String(repeating: #"0123456789\""#, count: 120)
        #expect(try Self.text([long, long]) == "[\"" + escaped + "\",\"" + escaped + "\"]")
        let many = Array(repeating: Charge(), count: 40)
        #expect(try Self.text(many) == "[" + Array(repeating: Self.charge, count: 40).joined(separator: ",") + "]")
    }

    /// Containers nested deeper than the writer keeps inline, closed in the right order.
    @Test func deepNesting() throws {
        struct Node: Encodable {
            var level: Int
            var children: [Node]
        }
        var node = Node(level: 20, children: [])
        var expected = #"{"level":20,"children":[]}"#
        for level in stride(from: 19, through: 0, by: -1) {
            node = Node(level: level, children: [node, Node(level: -level, children: [])])
            expected = #"{"level":\#(level),"children":["# + expected + #",{"level":\#(-level),"children":[]}]}"#
        }
        #expect(try Self.text(node) == expected)
        #expect(try Self.text([node, node]) == "[" + expected + "," + expected + "]")
    }

    @Test func siblingsThatAskForTheirContainerTwice() throws {
        let inner = Self.charge.dropFirst().dropLast()
        let one = #"{"outer":"o","# + inner + #","outer":"again"}"#
        #expect(try Self.text([Flattened(), Flattened()]) == "[" + one + "," + one + "]")
    }

    /// An encoder its value kept must not be handed to the next value: a late write through it
    /// must not land in the next value's object (the encoder refuses the value instead).
    @Test func keptEncodersAreNotReused() throws {
        final class Stash: @unchecked Sendable {
            var encoders: [any Encoder] = []
        }
        struct Keeper: Encodable {
            let stash: Stash
            func encode(to encoder: any Encoder) throws {
                stash.encoders.append(encoder)
                var container = encoder.container(keyedBy: Key.self)
                try container.encode(1, forKey: Key("k"))
            }
        }
        struct Parent: Encodable {
            let stash = Stash()
            func encode(to encoder: any Encoder) throws {
                stash.encoders.removeAll()
                var container = encoder.container(keyedBy: Key.self)
                try container.encode(Keeper(stash: stash), forKey: Key("a"))
                try container.encode(Keeper(stash: stash), forKey: Key("b"))
                var late = stash.encoders[0].container(keyedBy: Key.self)
                try late.encode(2, forKey: Key("late"))
            }
        }
        #expect(throws: EncodingError.self) { try StreamingJSONEncoder().encode(Parent()) }
    }

    /// The encoder hands its own buffer to `Data`: the value behaves like any other `Data`.
    @Test(arguments: [1, 40, 400])
    func bodiesAreOrdinaryData(count: Int) throws {
        let expected = "[" + Array(repeating: Self.charge, count: count).joined(separator: ",") + "]"
        var data = try StreamingJSONEncoder().encode(Array(repeating: Charge(), count: count))
        let copy = data
        data.append(contentsOf: Array("\n".utf8))
        #expect(String(decoding: copy, as: UTF8.self) == expected)
        #expect(String(decoding: data, as: UTF8.self) == expected + "\n")
        #expect(data.dropFirst().first == UInt8(ascii: "{"))
    }
}
