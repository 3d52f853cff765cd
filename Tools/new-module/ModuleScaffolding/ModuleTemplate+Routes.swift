extension ModuleTemplate {
    /// The daemon's route group of the module, relative to the repository root.
    static func routesPath(_ spec: ModuleSpec) -> String {
        "Apps/SwiftyDaemon/Routes/\(spec.routeGroupName).swift"
    }

    /// `Apps/SwiftyDaemon/Routes/<Name>Routes.swift`: the module's app routes (one example route
    /// calling the example case) and the fixture its scripted sandbox upstream answers from.
    static func routes(_ spec: ModuleSpec) -> String {
        let name = spec.name
        let imports = ["HTTPServer", spec.moduleName, "SandboxUpstreams", "ServiceCore"].sorted()
            .map { "import \($0)" }.joined(separator: "\n")
        return #"""
            \#(imports)

            /// The \#(spec.slug) module's app routes. The generated example answers the item
            /// `\#(name)Client.item(id:)` gets; replace it with the module's real routes.
            struct \#(spec.routeGroupName): AppRouteGroup {
                static let modules: [any ModuleIdentity.Type] = [\#(spec.moduleName)Identity.self]

                /// What the scripted sandbox upstream answers: an item for any well-formed id.
                static let sandboxAnswers = [
                    ScriptedAnswer(module: \#(spec.moduleName)Identity.name, "GET", "/v1/items/:id") {
                        \#(name)Item(id: $0["id"] ?? "", name: "Sample item")
                    }
                ]

                let client: \#(name)Client

                init(clients: RouteGroupClients) throws {
                    client = try clients.make()
                }

                func addRoutes(to routes: inout AppRoutes) {
                    routes.add("GET", "\#(spec.exampleRoute)") { call in
                        AppAnswer.json(try await client.item(id: call.parameters["id"] ?? ""))
                    }
                }
            }

            """#
    }
}
