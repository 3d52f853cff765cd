import Foundation
import JSON
import ServiceCore

extension DaemonConfiguration {
    /// A configuration that cannot be loaded: an unreadable or malformed file, a malformed
    /// environment variable. The daemon prints it and exits 78.
    public struct LoadError: Error, Sendable, Equatable, CustomStringConvertible {
        /// What was wrong, naming the file, field or variable.
        public var message: String
        /// The message.
        public var description: String { message }
    }

    /// Loads the configuration: defaults, then the file (`--config`, else `SWIFTY_CONFIG`),
    /// then `SWIFTY_*` environment variables, then flags.
    /// - Throws: ``LoadError``.
    public static func load(arguments: DaemonArguments, environment: [String: String]) throws(LoadError)
        -> DaemonConfiguration
    {
        var configuration = DaemonConfiguration()
        if let path = arguments.configFile ?? environment["SWIFTY_CONFIG"] {
            configuration = try decodeFile(at: path)
        }
        try configuration.apply(environment: environment)
        if let host = arguments.host { configuration.host = host }
        if let port = arguments.port { configuration.port = port }
        if let adminPort = arguments.adminPort { configuration.adminPort = adminPort }
        if let deadline = arguments.requestDeadlineMilliseconds {
            configuration.requestDeadlineMilliseconds = deadline
        }
        if let maxInFlight = arguments.maxInFlight { configuration.maxInFlight = maxInFlight }
        for setting in arguments.moduleSettings {
            try configuration.apply(moduleSetting: setting)
        }
        return configuration
    }

    /// Applies one `--module Name.field=value` flag.
    mutating func apply(moduleSetting setting: String) throws(LoadError) {
        let flag = "--module \(setting)"
        guard let dot = setting.firstIndex(of: "."), let equals = setting.firstIndex(of: "="), dot < equals else {
            throw LoadError(message: "\(flag): expected Name.field=value")
        }
        let module = String(setting[..<dot])
        let field = String(setting[setting.index(after: dot)..<equals])
        let text = String(setting[setting.index(after: equals)...])
        guard FeatureModuleRegistry.module(named: module) != nil else {
            let known = FeatureModuleRegistry.modules.map { $0.name }.sorted().joined(separator: ", ")
            throw LoadError(message: "\(flag): \(module) is not a registered module (known: \(known))")
        }
        var settings = modules[module] ?? ModuleSettings()
        if let expected = settings.setResilienceField(field, from: text) {
            let fields = ModuleSettings.resilienceFields.joined(separator: ", ")
            throw LoadError(
                message: expected == "a known field"
                    ? "\(flag): \(field) is not a resilience field (known: \(fields))"
                    : "\(flag): \"\(text)\" is not \(expected)")
        }
        modules[module] = settings
    }

    /// Reads and decodes a JSON configuration file.
    static func decodeFile(at path: String) throws(LoadError) -> DaemonConfiguration {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw LoadError(message: "cannot read the configuration file \(path): \(Self.reason(error))")
        }
        do {
            return try StreamingJSONDecoder().decode(DaemonConfiguration.self, from: data)
        } catch let error as DecodingError {
            throw LoadError(message: "the configuration file \(path) is not valid: \(KeyPathDecoding.explain(error))")
        } catch {
            throw LoadError(message: "the configuration file \(path) is not valid JSON: \(error)")
        }
    }

    /// The environment-variable prefix of a module: `SWIFTY_USER_` for `UserModule`.
    public static func environmentPrefix(module: String) -> String {
        var name = module
        if name.hasSuffix("Module") && name != "Module" { name.removeLast("Module".count) }
        var snake = ""
        for (index, character) in name.enumerated() {
            if character.isUppercase && index > 0 { snake += "_" }
            snake += character.uppercased()
        }
        return "SWIFTY_\(snake)_"
    }

    /// Applies `SWIFTY_*` variables over the current values.
    mutating func apply(environment: [String: String]) throws(LoadError) {
        func integer(_ name: String) throws(LoadError) -> Int? {
            guard let text = environment[name] else { return nil }
            guard let value = Int(text) else { throw LoadError(message: "\(name)=\"\(text)\" is not a whole number") }
            return value
        }
        if let text = environment["SWIFTY_MODE"] {
            guard let value = Mode(rawValue: text) else {
                throw LoadError(message: "SWIFTY_MODE=\"\(text)\" is not one of sandbox, live")
            }
            mode = value
        }
        if let value = environment["SWIFTY_HOST"] { host = value }
        if let value = try integer("SWIFTY_PORT") { port = value }
        if let value = environment["SWIFTY_ADMIN_HOST"] { adminHost = value }
        if let value = try integer("SWIFTY_ADMIN_PORT") { adminPort = value }
        if let value = try integer("SWIFTY_THREADS") { threads = value }
        if let value = environment["SWIFTY_LOG_LEVEL"] { logging.level = value }
        if let value = environment["SWIFTY_LOG_FORMAT"] { logging.format = value }
        if let value = try integer("SWIFTY_SANDBOX_LATENCY_MS") { sandbox.latencyMilliseconds = value }
        if let text = environment["SWIFTY_SANDBOX_ERROR_RATE"] {
            guard let value = Double(text) else {
                throw LoadError(message: "SWIFTY_SANDBOX_ERROR_RATE=\"\(text)\" is not a number")
            }
            sandbox.errorRate = value
        }
        if let text = environment["SWIFTY_DRAIN_SECONDS"] {
            guard let value = Double(text) else {
                throw LoadError(message: "SWIFTY_DRAIN_SECONDS=\"\(text)\" is not a number")
            }
            drainSeconds = value
        }
        if let text = environment["SWIFTY_TRUSTED_PROXIES"] {
            trustedProxies = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        if let value = try integer("SWIFTY_REQUEST_DEADLINE_MS") { requestDeadlineMilliseconds = value }
        if let value = try integer("SWIFTY_MAX_IN_FLIGHT") { maxInFlight = value }
        if let text = environment["SWIFTY_DRAIN_DELAY_SECONDS"] {
            guard let value = Double(text) else {
                throw LoadError(message: "SWIFTY_DRAIN_DELAY_SECONDS=\"\(text)\" is not a number")
            }
            drainDelaySeconds = value
        }
        try sharedState.apply(environment: environment)
        for module in FeatureModuleRegistry.modules.map({ $0.name }) {
            let prefix = Self.environmentPrefix(module: module)
            var settings = modules[module] ?? ModuleSettings()
            var changed = false
            if let value = environment[prefix + "BASE_URL"] {
                settings.baseURL = value
                changed = true
            }
            if let value = environment[prefix + "KEY_ID"] {
                settings.keyID = value
                changed = true
            }
            if let value = environment[prefix + "KEY_FILE"] {
                settings.keyFile = value
                changed = true
            }
            if let text = environment[prefix + "TRANSPORT"] {
                guard let value = TransportKind(rawValue: text) else {
                    throw LoadError(
                        message: "\(prefix)TRANSPORT=\"\(text)\" is not one of auto, curl, urlsession, http1")
                }
                settings.transport = value
                changed = true
            }
            if let value = try integer(prefix + "TIMEOUT_MS") {
                settings.timeoutMilliseconds = value
                changed = true
            }
            for field in ModuleSettings.resilienceFields {
                let name = prefix + ModuleSettings.environmentName(of: field)
                guard let text = environment[name] else { continue }
                if let expected = settings.setResilienceField(field, from: text) {
                    throw LoadError(message: "\(name)=\"\(text)\" is not \(expected)")
                }
                changed = true
            }
            if changed { modules[module] = settings }
        }
    }

    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
            underlying.domain == NSPOSIXErrorDomain, let code = POSIXErrorCode(rawValue: Int32(underlying.code))
        {
            return String(cString: strerror(code.rawValue))
        }
        if nsError.domain == NSCocoaErrorDomain && nsError.code == NSFileReadNoSuchFileError {
            return "no such file"
        }
        return nsError.localizedDescription
    }
}
