import ServiceCore

/// Makes one route group's module clients, each bound to its module's base URL, key,
/// transport and middleware stack; only for the modules the group declares.
struct RouteGroupClients {
    /// The group, for messages.
    let group: String
    /// The names of the modules the group declares (``AppRouteGroup/modules``).
    let modules: Set<String>
    let factory: ModuleClientFactory

    init(for group: any AppRouteGroup.Type, factory: ModuleClientFactory) {
        self.group = String(describing: group)
        self.modules = Set(group.modules.map { $0.name })
        self.factory = factory
    }

    /// The typed client of a module the group declares.
    /// - Throws: ``ConfigurationProblems`` when the group does not declare the client's module or
    ///   the module is not bound.
    func make<Client: ModuleClient>(_ type: Client.Type = Client.self) throws -> Client {
        let module = Client.Module.name
        guard modules.contains(module) else {
            throw ConfigurationProblems(problems: [
                "\(group) makes a \(module) client but does not list \(module) in its modules"
            ])
        }
        return Client(try factory.client(Client.API.self, module))
    }
}
