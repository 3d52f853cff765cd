/// The parsed command line of `new-module`.
public struct CommandLineOptions: Sendable, Equatable {
    /// The module's name, without `Module`.
    public var name: String
    /// `--base-url`: the production base URL.
    public var baseURL: String
    /// `--staging-base-url`: the staging base URL, if given.
    public var stagingBaseURL: String?
    /// `--key-id`: the default signing key id, if given.
    public var keyID: String?
    /// `--repo`: the repository root, if given (else the current directory).
    public var repository: String?
    /// `--dry-run`: print the plan, write nothing.
    public var dryRun: Bool

    /// Creates options.
    public init(
        name: String,
        baseURL: String,
        stagingBaseURL: String? = nil,
        keyID: String? = nil,
        repository: String? = nil,
        dryRun: Bool = false
    ) {
        self.name = name
        self.baseURL = baseURL
        self.stagingBaseURL = stagingBaseURL
        self.keyID = keyID
        self.repository = repository
        self.dryRun = dryRun
    }

    /// What the command line asks for.
    public enum Request: Sendable, Equatable {
        /// Print the help text.
        case help
        /// Create a module.
        case create(CommandLineOptions)
    }

    /// The help text.
    public static let usage = """
        OVERVIEW: Create a feature module, its tests, its daemon route group, its Package.swift entry and its
        daemon registration.

        USAGE: new-module <name> --base-url <url> [--staging-base-url <url>] [--key-id <id>] [--repo <dir>] [--dry-run]

        ARGUMENTS:
          <name>                    The feature's name in UpperCamelCase, without "Module" (Inventory
                                    creates InventoryModule).

        OPTIONS:
          --base-url <url>          The production base URL, absolute http(s).
          --staging-base-url <url>  The staging base URL, absolute http(s) (default: none; staging then
                                    needs an override in the daemon's configuration).
          --key-id <id>             The default signing key id (default: the name in lowercase words
                                    and -1, e.g. inventory-1 or order-history-1).
          --repo <dir>              The repository root (default: the current directory).
          --dry-run                 Print what would be written, write nothing.
          -h, --help                Show this help.

        Exit status: 0 on success, 64 for a usage error or a refused name or URL (nothing is changed),
        66 when the repository's Package.swift or registry is missing or unrecognised, 74 when writing
        failed (what was written is removed again).
        """

    /// Parses the arguments (without the program name).
    /// - Throws: ``ScaffoldingError`` with code `usage`.
    public static func parse(_ arguments: [String]) throws(ScaffoldingError) -> Request {
        var name: String?
        var values: [String: String] = [:]
        var dryRun = false
        let valued = ["--base-url", "--staging-base-url", "--key-id", "--repo"]
        if arguments.contains(where: { $0 == "-h" || $0 == "--help" }) { return .help }
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--dry-run" {
                dryRun = true
                continue
            }
            if argument.hasPrefix("-") {
                var option = argument
                var value: String?
                if let equals = argument.firstIndex(of: "=") {
                    option = String(argument[..<equals])
                    value = String(argument[argument.index(after: equals)...])
                }
                guard valued.contains(option) else {
                    throw ScaffoldingError(.usage, "unknown option \(ModuleSpec.printable(option)); see --help")
                }
                if value == nil {
                    guard index < arguments.count else { throw ScaffoldingError(.usage, "\(option) needs a value") }
                    value = arguments[index]
                    index += 1
                }
                guard values[option] == nil else { throw ScaffoldingError(.usage, "\(option) is given twice") }
                values[option] = value
                continue
            }
            guard name == nil else {
                throw ScaffoldingError(
                    .usage,
                    "one module name expected, got \"\(ModuleSpec.printable(name ?? ""))\" and "
                        + "\"\(ModuleSpec.printable(argument))\""
                )
            }
            name = argument
        }
        guard let name else { throw ScaffoldingError(.usage, "missing the module name; see --help") }
        guard let baseURL = values["--base-url"] else {
            throw ScaffoldingError(.usage, "missing --base-url <url> (the module's production base URL)")
        }
        return .create(
            CommandLineOptions(
                name: name,
                baseURL: baseURL,
                stagingBaseURL: values["--staging-base-url"],
                keyID: values["--key-id"],
                repository: values["--repo"],
                dryRun: dryRun
            )
        )
    }
}
