/// Options and flags of one subcommand, read from `--name value`, `--name=value` and `--flag`.
///
/// Every option may appear once; an unknown option, a missing value or a stray argument is a
/// ``UsageError``.
public struct ArgumentList: Sendable, Equatable {
    /// Option values by name (without the dashes).
    public private(set) var values: [String: String]
    /// Flags present (without the dashes).
    public private(set) var flags: Set<String>

    /// Parses arguments.
    /// - Parameters:
    ///   - arguments: The arguments after the subcommand.
    ///   - options: Names that take a value.
    ///   - flags: Names that take none (`help` is always accepted).
    ///   - subcommand: For error messages.
    /// - Throws: ``UsageError``.
    public init(
        _ arguments: [String],
        options: Set<String>,
        flags knownFlags: Set<String>,
        subcommand: String
    ) throws(UsageError) {
        values = [:]
        flags = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--"), argument.count > 2 else {
                throw UsageError("unexpected argument '\(argument)'", subcommand: subcommand)
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if knownFlags.contains(name) || name == "help" {
                guard inlineValue == nil else {
                    throw UsageError("the flag '--\(name)' takes no value", subcommand: subcommand)
                }
                flags.insert(name)
                continue
            }
            guard options.contains(name) else {
                throw UsageError("unknown option '--\(name)'", subcommand: subcommand)
            }
            guard values[name] == nil else {
                throw UsageError("the option '--\(name)' is given more than once", subcommand: subcommand)
            }
            if let inlineValue {
                values[name] = inlineValue
            } else {
                guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                    throw UsageError("the option '--\(name)' needs a value", subcommand: subcommand)
                }
                values[name] = arguments[index]
                index += 1
            }
        }
    }

    /// Whether a flag was given.
    public func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// An option's value, or `nil`.
    public subscript(option: String) -> String? { values[option] }

    /// A required option's value.
    /// - Throws: ``UsageError`` when it is absent or empty.
    public func required(_ option: String, subcommand: String) throws(UsageError) -> String {
        guard let value = values[option], !value.isEmpty else {
            throw UsageError("missing required option '--\(option)'", subcommand: subcommand)
        }
        return value
    }

    /// An option's value as a whole number in a range, or `nil` when absent.
    /// - Throws: ``UsageError`` when it is not such a number.
    public func integer(
        _ option: String,
        in range: ClosedRange<Int64>,
        subcommand: String
    ) throws(UsageError) -> Int64? {
        guard let text = values[option] else { return nil }
        guard let value = Int64(text), range.contains(value) else {
            throw UsageError(
                "'--\(option)' must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'",
                subcommand: subcommand)
        }
        return value
    }

    /// An option's value from a fixed set, or `nil` when absent.
    /// - Throws: ``UsageError`` when it is not one of `choices`.
    public func choice(_ option: String, from choices: [String], subcommand: String) throws(UsageError) -> String? {
        guard let value = values[option] else { return nil }
        guard choices.contains(value) else {
            throw UsageError(
                "'--\(option)' must be one of \(choices.joined(separator: ", ")), not '\(value)'",
                subcommand: subcommand)
        }
        return value
    }
}
