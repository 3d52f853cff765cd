import Foundation
import Testing

@testable import RequestSigning

/// The encoder agrees with RFC 4648's examples, and with Foundation's for every length up to 80
/// (each remainder of three, so each tail and padding) in both alphabets.
struct Base64Tests {
    private static func encoded(_ bytes: [UInt8], urlSafe: Bool, padding: Bool) -> String {
        var output: [UInt8] = []
        bytes.withUnsafeBytes { Base64.encode($0, into: &output, urlSafe: urlSafe, padding: padding) }
        return String(decoding: output, as: UTF8.self)
    }

    @Test func rfc4648Examples() {
        let examples = [
            "": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=",
            "foobar": "Zm9vYmFy",
        ]
        for (text, expected) in examples {
            #expect(Self.encoded(Array(text.utf8), urlSafe: false, padding: true) == expected, "\(text)")
        }
    }

    @Test func everyLengthMatchesFoundation() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for length in 0...80 {
            for _ in 0..<8 {
                let bytes = (0..<length).map { _ in
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    return UInt8(truncatingIfNeeded: state >> 56)
                }
                let standard = Data(bytes).base64EncodedString()
                let urlSafe = standard.replacingOccurrences(of: "+", with: "-")
                    .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
                #expect(Self.encoded(bytes, urlSafe: false, padding: true) == standard, "length \(length)")
                #expect(Self.encoded(bytes, urlSafe: true, padding: false) == urlSafe, "length \(length)")
            }
        }
    }
}
