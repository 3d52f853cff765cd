import HTTPServer

/// The routes of a scripted upstream: one per answer, each checking the path's parameters as
/// identifiers before answering.
enum ScriptedRoutes {
    /// The router over the answers.
    static func router(_ answers: [ScriptedAnswer]) -> Router {
        var table = RouteTable()
        for answer in answers {
            table.add(answer.method, answer.pattern) { _, parameters throws(Problem) in
                var values: [String: String] = [:]
                for (name, _) in parameters.pairs {
                    values[name] = try parameters.identifier(name)
                }
                return answer.respond(values)
            }
        }
        return table.router
    }
}
