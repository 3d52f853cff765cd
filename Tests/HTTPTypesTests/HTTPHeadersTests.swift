import Testing

@testable import HTTPTypes

struct HTTPHeadersTests {
    @Test func lookupIsCaseInsensitiveAndOrderIsKept() {
        var headers: HTTPHeaders = ["Accept": "a", "X-Many": "1"]
        headers.add(name: "x-many", value: "2")
        #expect(headers["ACCEPT"] == "a")
        #expect(headers.values(for: "X-MANY") == ["1", "2"])
        #expect(headers.map(\.name) == ["Accept", "X-Many", "x-many"])
    }

    /// A literal's list has room for the fields a server adds on the way out (a request id, a
    /// challenge), so adding them does not reallocate it; an empty literal allocates nothing.
    @Test func aLiteralKeepsRoomForTwoMoreFields() {
        var headers: HTTPHeaders = ["Content-Type": "application/problem+json"]
        let capacity = headers.fields.capacity
        #expect(capacity >= 3)
        headers.add(name: "WWW-Authenticate", value: "Bearer")
        headers.add(name: "X-Request-ID", value: "abc")
        #expect(headers.fields.capacity == capacity)
        #expect(headers.fields.map(\.name) == ["Content-Type", "WWW-Authenticate", "X-Request-ID"])
        let empty: HTTPHeaders = [:]
        #expect(empty.fields.capacity == 0)
    }

    @Test func reservedRoomIsKeptWhileFieldsAreAdded() {
        var headers = HTTPHeaders()
        headers.reserveCapacity(HTTPHeaders.typicalFieldCount)
        let capacity = headers.fields.capacity
        #expect(capacity >= HTTPHeaders.typicalFieldCount)
        for index in 0..<HTTPHeaders.typicalFieldCount { headers.add(name: "X-\(index)", value: "\(index)") }
        #expect(headers.fields.capacity == capacity)
        #expect(headers.count == HTTPHeaders.typicalFieldCount)
        #expect(headers["x-7"] == "7")
    }

    @Test func replaceOrAddKeepsThePositionOfTheFirst() {
        var headers: HTTPHeaders = ["A": "1", "B": "2", "a": "3"]
        headers.replaceOrAdd(name: "a", value: "9")
        #expect(headers.map(\.name) == ["a", "B"])
        #expect(headers["A"] == "9")
        headers["B"] = nil
        #expect(headers.count == 1)
    }

    @Test func redactingReplacesValuesOnly() {
        let headers: HTTPHeaders = ["Authorization": "Bearer x", "Accept": "json"]
        let redacted = headers.redacting(HTTPHeaders.sensitiveNames)
        #expect(redacted["authorization"] == "[REDACTED]")
        #expect(redacted["accept"] == "json")
    }
}

struct PercentEncodingMaskTests {
    @Test func maskConstantsMatchTheirMemberLists() {
        #expect(PercentEncoding.masksMatchTheirSources)
    }
}
