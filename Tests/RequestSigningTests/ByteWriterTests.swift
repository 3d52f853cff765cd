import Testing

@testable import RequestSigning

/// The writer's decimal digits agree with the standard library's description of the number.
struct ByteWriterTests {
    /// What the writer appends for `value`, after a byte already written (so the eight-byte
    /// stores start at an odd offset) and before one written after (so an overhang of a store
    /// is overwritten, not kept).
    private static func written(_ value: Int64) -> String {
        withUnsafeTemporaryAllocation(byteCount: 64, alignment: 16) { buffer in
            var writer = ByteWriter(buffer)
            writer.append(UInt8(ascii: "<"))
            writer.append(decimal: value)
            writer.append(UInt8(ascii: ">"))
            return String(decoding: writer.bytes, as: UTF8.self)
        }
    }

    @Test func decimalsAtEveryLengthAndItsEdges() {
        var values: [Int64] = [0, 1, -1, 9, 10, 99, 100, .max, .min, .max - 1, .min + 1]
        // Around each power of ten up to 10^18, and some multiples of it that fit.
        var power: Int64 = 1
        for exponent in 0...18 {
            values += [power - 1, power, power + 1]
            for factor: Int64 in [2, 5, 9] {
                let (product, overflow) = power.multipliedReportingOverflow(by: factor)
                if !overflow { values += [product - 1, product] }
            }
            if exponent < 18 { power *= 10 }
        }
        values += values.filter { $0 != .min }.map { -$0 }
        for value in values {
            #expect(Self.written(value) == "<\(value)>", "value \(value)")
        }
    }

    @Test func decimalsOfTimestampsAndAMixOfDigits() {
        // Every pair and every four-digit half appears in some lane of the samples.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for index in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let timestamp = 1_700_000_000 + Int64(index) * 7_919
            let any = Int64(bitPattern: state >> UInt64(index % 64))
            #expect(Self.written(timestamp) == "<\(timestamp)>")
            #expect(Self.written(any) == "<\(any)>")
        }
        for half in 0..<10_000 {
            let value = Int64(half) * 10_001
            #expect(Self.written(value) == "<\(value)>")
        }
    }
}
