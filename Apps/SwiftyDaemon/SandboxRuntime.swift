import AppLogging
import Foundation
import RequestSigning

/// The sandbox upstreams as the daemon runs them in sandbox mode.
public final class SandboxRuntime: Sendable {
    static func start(logger: Logger) async throws -> SandboxRuntime {
        throw ConfigurationProblems(problems: ["the sandbox is not available yet"])
    }

    func bindings(_ configuration: DaemonConfiguration) -> [String: UpstreamBinding] { [:] }

    func shutdown() async {}
}
