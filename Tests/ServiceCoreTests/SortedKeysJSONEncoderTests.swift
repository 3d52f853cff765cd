import Foundation
import HTTPTypes
import JSON
import ServiceCore
import Testing

/// The request-body encoder: sorted keys, unescaped slashes, the same bytes as Foundation's
/// encoder so configured, and those bytes in the built request.
struct SortedKeysJSONEncoderTests {
    struct Nested: Encodable {
        var zeta = "z/1"
        var alpha = ["b": 2, "a": 1]
        var middle: [Int] = [3, 1, 2]
        var text = "quote \" and é"
    }

    @Test
    func keysAreSortedAtEveryLevelAndSlashesKept() throws {
        let data = try SortedKeysJSONEncoder().encode(Nested())
        #expect(
            String(decoding: data, as: UTF8.self)
                == #"{"alpha":{"a":1,"b":2},"middle":[3,1,2],"text":"quote \" and é","zeta":"z/1"}"#
        )
    }

    @Test
    func bytesMatchFoundationsEncoderSoConfigured() throws {
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let entry = CatalogEntry(name: "n", url: "https://x.test/a/b", listedAt: RFC3339TimestampTests.noon)
        #expect(try SortedKeysJSONEncoder().encode(entry) == foundation.encode(entry))
        #expect(try SortedKeysJSONEncoder().encode(Nested()) == foundation.encode(Nested()))
    }

    @Test
    func unencodableValuesThrow() {
        #expect(throws: EncodingError.self) { try SortedKeysJSONEncoder().encode(["x": Double.nan]) }
    }

    @Test
    func theBuiltRequestCarriesTheseBytes() throws {
        let client = try ServiceClient<CatalogService>(
            baseURL: "https://h.example.test",
            transport: ClosureTransport.json(200, "{}")
        )
        let entry = CatalogEntry(name: "n", url: "https://x.test/a", listedAt: RFC3339TimestampTests.noon)
        let request = try client.makeRequest(.list(entry))
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(
            text(request.body) == #"{"listedAt":"2026-03-01T12:00:00Z","name":"n","url":"https://x.test/a"}"#
        )
    }
}
