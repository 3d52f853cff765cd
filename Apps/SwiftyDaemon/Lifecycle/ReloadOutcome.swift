/// What a configuration reload (SIGHUP, ``Daemon/reload(arguments:)``) did.
public enum ReloadOutcome: Sendable, Equatable {
    /// The new configuration serves new requests; `generation` counts the configurations
    /// loaded, 1 being the one read at start.
    case applied(generation: Int)
    /// The running configuration was kept; `problem` names what was wrong (a file, a field,
    /// a setting that needs a restart), never a secret.
    case kept(problem: String)
}
