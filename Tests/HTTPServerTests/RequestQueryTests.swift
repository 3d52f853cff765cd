import HTTPServer
import Testing

struct RequestQueryTests {
    @Test(arguments: [
        ("a=1&b=2", [("a", "1"), ("b", "2")]),
        ("a=1&a=2", [("a", "1"), ("a", "2")]),
        ("name=J%C3%BCrgen", [("name", "Jürgen")]),
        ("cursor=ab+c%2Fd%3D", [("cursor", "ab+c/d=")]),
        ("flag&empty=", [("flag", ""), ("empty", "")]),
        ("&&a=%3D%26&", [("a", "=&")]),
        ("", []),
    ])
    func splitsAndDecodesPairsInOrder(_ raw: String, _ expected: [(String, String)]) throws {
        let query = try RequestQuery(raw)
        #expect(query.pairs.map(\.name) == expected.map(\.0))
        #expect(query.pairs.map(\.value) == expected.map(\.1))
    }

    @Test(
        arguments: [
            ("a=%", "a"), ("a=%4", "a"), ("a=%zz", "a"), ("a=%FF", "a"), ("a=%C3", "a"), ("%zz=1", nil),
        ] as [(String, String?)])
    func refusesMalformedEscapesNamingTheParameter(_ raw: String, _ parameter: String?) {
        #expect(throws: RequestQuery.Failure.self) { try RequestQuery(raw) }
        do {
            _ = try RequestQuery(raw)
        } catch {
            #expect(error.parameter == parameter)
            #expect(error.description.contains("malformed percent-encoding"))
        }
    }

    @Test func singleRefusesARepeatedParameter() throws {
        let query = try RequestQuery("limit=1&limit=2&cursor=x")
        #expect(try query.single("cursor") == "x")
        #expect(try query.single("absent") == nil)
        #expect(throws: RequestQuery.Failure.self) { try query.single("limit") }
    }

    @Test func aMissingQueryIsEmpty() throws {
        #expect(try RequestQuery(nil).pairs.isEmpty)
    }
}
