import Testing

@testable import RequestSigning

/// The word-at-a-time byte scans agree with a byte-by-byte reading of their rules.
struct ByteTextTests {
    /// Byte strings of every length up to 40 over bytes near each rule's edges, each edge byte
    /// tried at every position, so each eight-byte step and the tail are crossed.
    private static func samples() -> [[UInt8]] {
        let edges: [UInt8] = [0x00, 0x09, 0x1F, 0x20, 0x21, 0x22, 0x5C, 0x7E, 0x7F, 0x80, 0xC3, 0xFF]
        var samples: [[UInt8]] = []
        for length in 0...40 {
            let plain = [UInt8]((0..<length).map { UInt8(ascii: "a") &+ UInt8($0 % 26) })
            samples.append(plain)
            for position in 0..<length {
                for edge in edges {
                    var sample = plain
                    sample[position] = edge
                    // A second edge byte later, to check that the first one found is the first.
                    if position + 3 < length { sample[position + 3] = edges[(position + 5) % edges.count] }
                    samples.append(sample)
                }
            }
        }
        return samples
    }

    @Test func isVisibleMatchesTheRule() {
        for sample in Self.samples() {
            let expected = sample.allSatisfy { $0 > 0x20 && $0 != 0x7F }
            let found = sample.withUnsafeBufferPointer { ByteText.isVisible($0) }
            #expect(found == expected, "\(sample)")
        }
    }

    @Test func isPrintableMatchesTheRule() {
        for sample in Self.samples() {
            let expected = sample.allSatisfy { $0 >= 0x20 && $0 != 0x7F }
            let found = sample.withUnsafeBufferPointer { ByteText.isPrintable($0) }
            #expect(found == expected, "\(sample)")
        }
    }

    @Test func endOfPlainStringFindsTheFirstStop() {
        for sample in Self.samples() {
            for start in [0, 1, 5].filter({ $0 <= sample.count }) {
                let expected =
                    sample[start...].firstIndex { !($0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C) }
                    ?? sample.count
                let found = sample.withUnsafeBufferPointer { ByteText.endOfPlainString($0, from: start) }
                #expect(found == expected, "\(sample) from \(start)")
            }
        }
    }
}
