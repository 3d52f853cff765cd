import Foundation
import SwiftyDaemon

/// What the Configuration fuzz target and its regression test run for one input: the daemon's
/// loader (``DaemonConfiguration/load(arguments:environment:)``) reads a configuration file
/// holding the input's bytes (after the first NUL, when there is one) with the environment
/// variables of the lines before it (`NAME=value`). It must give a configuration or a
/// ``DaemonConfiguration/LoadError`` naming the file or a variable; a configuration loaded from
/// the file alone, written out as JSON and loaded again, must be the same. A difference is a
/// `ConfigurationFuzzExercise.Violation`.
///
/// The same file is compiled into the libFuzzer binary (Tools/fuzz/run) and into the test target.
enum ConfigurationFuzzExercise {
    /// A broken invariant, with the input concerned.
    struct Violation: Error, CustomStringConvertible {
        var message: String
        var input: [UInt8]
        var description: String {
            "\(message); input: \(String(decoding: input.prefix(2048), as: UTF8.self).debugDescription)"
        }
    }

    static func run(_ input: [UInt8]) throws(Violation) {
        var environment: [String: String] = [:]
        var file = input[...]
        if let nul = input.firstIndex(of: 0) {
            file = input[(nul + 1)...]
            for line in input[..<nul].split(separator: 0x0A) {
                let text = String(decoding: line, as: UTF8.self)
                guard let equals = text.firstIndex(of: "=") else { continue }
                environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
        }
        environment["SWIFTY_CONFIG"] = nil
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "swifty-fuzz-\(UUID().uuidString).json"
        )
        .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        guard FileManager.default.createFile(atPath: path, contents: Data(file)) else {
            fatalError("cannot write \(path)")
        }
        var arguments = DaemonArguments()
        arguments.configFile = path
        let configuration: DaemonConfiguration
        do {
            configuration = try DaemonConfiguration.load(arguments: arguments, environment: environment)
        } catch {
            let named =
                error.message.contains(path)
                || environment.keys.contains { $0.hasPrefix("SWIFTY_") && error.message.contains($0) }
            guard named, !error.message.isEmpty else {
                throw Violation(
                    message: "an error naming neither the file nor a variable: \(error.message)", input: input)
            }
            return
        }
        guard environment.isEmpty else { return }
        // Written out and read again, the file gives the same configuration.
        let encoded: Data
        do {
            encoded = try JSONEncoder().encode(configuration)
        } catch {
            throw Violation(message: "a loaded configuration does not encode: \(error)", input: input)
        }
        guard FileManager.default.createFile(atPath: path, contents: encoded) else {
            fatalError("cannot write \(path)")
        }
        let again: DaemonConfiguration
        do {
            again = try DaemonConfiguration.load(arguments: arguments, environment: [:])
        } catch {
            throw Violation(message: "a configuration written out does not load: \(error)", input: input)
        }
        guard again == configuration else {
            throw Violation(message: "a configuration written out loads as another", input: input)
        }
    }
}
