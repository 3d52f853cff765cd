import AppLogging

/// Installs the daemon's log handler from the configuration.
enum LogSetup {
    static func level(_ name: String) -> Logger.Level? {
        Logger.Level(rawValue: name.lowercased())
    }

    /// Bootstraps the logging system: JSON or text lines on standard error, at the level given.
    static func bootstrap(_ logging: DaemonConfiguration.Logging) -> Logger.Level {
        let format: StreamLogHandler.Format = logging.format == "text" ? .text : .json
        LoggingSystem.bootstrap { _ in StreamLogHandler(stream: .standardError, format: format) }
        return level(logging.level) ?? .info
    }
}
