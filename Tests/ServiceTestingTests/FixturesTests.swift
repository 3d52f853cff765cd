import Foundation
import HTTPTypes
import ServiceCore
import ServiceTesting
import Testing

struct FixturesTests {
    private let fixtures = Fixtures(bundle: .module, subdirectory: "Fixtures")

    @Test func decodesAndLoadsFixtureFiles() throws {
        #expect(try fixtures.decode(Profile.self, from: "user.json") == Profile(id: "alice", name: "Alice"))
        #expect(try fixtures.text("user.json").contains("\"alice\""))
        #expect(try fixtures.data("user.json").count > 10)
    }

    @Test func buildsResponsesFromFixturesAndValues() throws {
        let response = try fixtures.response(200, json: "user.json", headers: ["X-Source": "fixture"])
        #expect(response.headers["Content-Type"] == "application/json")
        #expect(response.headers["X-Source"] == "fixture")
        #expect(try JSONDecoder().decode(Profile.self, from: response.body).id == "alice")
        let encoded = try Fixtures.jsonResponse(201, Profile(id: "b", name: "B"))
        #expect(encoded.status == 201)
        #expect(try JSONDecoder().decode(Profile.self, from: encoded.body) == Profile(id: "b", name: "B"))
    }

    @Test func aMissingFixtureIsAClearError() throws {
        let error = #expect(throws: FixtureError.self) { try fixtures.data("absent.json") }
        #expect(error?.code == .notFound)
        #expect(error?.message.contains("absent.json") == true)
    }

    @Test func aFixtureOfTheWrongShapeIsAClearError() throws {
        struct Other: Decodable { var count: Int }
        let error = #expect(throws: FixtureError.self) { try fixtures.decode(Other.self, from: "user.json") }
        #expect(error?.code == .undecodable)
        #expect(error?.message.contains("Other") == true)
    }
}
