import Foundation
import HTTPTypes
import ServiceCore
import Testing

/// The members of a problem document the tests look at.
struct ProblemBody: Decodable, Equatable {
    var type: String?
    var title: String?
    var status: Int?
    var detail: String?
    var code: String?
}

/// A failed call's HTTP status and problem body (from the error the client threw).
struct ObservedProblem {
    var status: Int
    var problem: ProblemBody
    var headers: HTTPHeaders
}

/// Runs `operation`, which must fail with an unacceptable status, and returns the status and
/// problem body; records an issue (and returns `nil`) otherwise.
func expectProblem(
    _ operation: () async throws -> some Any,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> ObservedProblem? {
    do {
        _ = try await operation()
        Issue.record(
            "expected the call to fail with a problem answer, but it succeeded", sourceLocation: sourceLocation)
        return nil
    } catch let error as ServiceError {
        guard error.code == .unacceptableStatus, let response = error.response else {
            Issue.record("expected a problem answer, got \(error)", sourceLocation: sourceLocation)
            return nil
        }
        guard let problem = try? JSONDecoder().decode(ProblemBody.self, from: response.bodyPrefix) else {
            Issue.record("the answer \(response.status) is not a problem document", sourceLocation: sourceLocation)
            return nil
        }
        #expect(
            response.headers["Content-Type"] == "application/problem+json", sourceLocation: sourceLocation)
        #expect(problem.status == response.status, sourceLocation: sourceLocation)
        return ObservedProblem(status: response.status, problem: problem, headers: response.headers)
    } catch {
        Issue.record("expected a ServiceError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// Decodes a raw response's problem body.
func problem(of response: HTTPResponse) -> ProblemBody? {
    try? JSONDecoder().decode(ProblemBody.self, from: response.body)
}
