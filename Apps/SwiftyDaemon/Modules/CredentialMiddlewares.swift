import Foundation
import ServiceCore
import Synchronization

/// One ``CredentialRefreshMiddleware`` per module whose settings have `credentials`, made once
/// and shared by every client of the module (so its route groups share one token), fetching
/// tokens over the module's own transport.
final class CredentialMiddlewares: Sendable {
    private struct Source {
        var tokenURL: URL
        var clientID: String
        var secret: String
        var scope: String?
        var renewBefore: Duration
    }

    private let sources: [String: Source]
    private let made = Mutex<[String: CredentialRefreshMiddleware]>([:])

    /// Reads every module's credential settings and secret.
    /// - Throws: ``ConfigurationProblems`` listing every module whose settings are invalid or
    ///   whose secret cannot be read.
    init(configuration: DaemonConfiguration, environment: [String: String]) throws(ConfigurationProblems) {
        var sources: [String: Source] = [:]
        var problems: [String] = []
        for (module, settings) in configuration.modules.sorted(by: { $0.key < $1.key }) {
            guard let credentials = settings.credentials else { continue }
            let prefix = "modules.\(module).credentials"
            let found = credentials.problems(prefix: prefix)
            guard found.isEmpty, let url = credentials.parsedTokenURL else {
                problems += found
                continue
            }
            do throws(ConfigurationProblems) {
                sources[module] = Source(
                    tokenURL: url, clientID: credentials.clientID,
                    secret: try credentials.secret(prefix: prefix, environment: environment),
                    scope: credentials.scope, renewBefore: credentials.renewBefore)
            } catch {
                problems += error.problems
            }
        }
        guard problems.isEmpty else { throw ConfigurationProblems(problems: problems) }
        self.sources = sources
    }

    /// The modules with credentials.
    var modules: Set<String> { Set(sources.keys) }

    /// The module's credential middleware, made on first use with `transport`; none when the
    /// module has no credentials.
    func middleware(for module: String, transport: any Transport) -> [any Middleware] {
        guard let source = sources[module] else { return [] }
        let middleware = made.withLock { made in
            if let existing = made[module] { return existing }
            let middleware = CredentialRefreshMiddleware(
                source: ClientCredentialsSource(
                    tokenURL: source.tokenURL, clientID: source.clientID, clientSecret: source.secret,
                    scope: source.scope, transport: transport),
                renewBefore: source.renewBefore)
            made[module] = middleware
            return middleware
        }
        return [middleware]
    }
}
