import Foundation
import JSON
import Testing

/// The canonical form: one spelling per JSON value, for comparing documents by value.
struct JSONCanonicalFormTests {
    private func canonical(_ text: String) throws -> String {
        String(decoding: try JSONCanonicalForm.bytes(of: Data(text.utf8)), as: UTF8.self)
    }

    @Test func sortsMembersAndDropsSpace() throws {
        #expect(
            try canonical(#" { "b" : [ 2 , { "z" : null , "y" : true } ] , "a" : 1.50e1 } "#)
                == #"{"a":1.50e1,"b":[2,{"y":true,"z":null}]}"#)
        // By the UTF-8 bytes of the unescaped name, as Foundation's `.sortedKeys`.
        #expect(
            try canonical(#"{"é":1,"f":2,"B":3,"a10":4,"a2":5,"\u0061":6}"#)
                == #"{"B":3,"a":6,"a10":4,"a2":5,"f":2,"é":1}"#)
    }

    @Test func spellsStringsOneWay() throws {
        #expect(try canonical(#"["\u0041\/\u00e9\n\u001f\"\\"]"#) == #"["A/é\n\u001f\"\\"]"#)
        #expect(try canonical(#"["A/é"]"#) == #"["A/é"]"#)
    }

    @Test func refusesWhatTheDecoderRefuses() {
        for text in [#"{"a":1,"a":2}"#, "\u{FEFF}1", #""\ud800""#, "[1,]", ""] {
            #expect(throws: DecodingError.self, "\(text)") { try canonical(text) }
        }
    }
}
