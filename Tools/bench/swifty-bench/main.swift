import Foundation

switch CommandLine.arguments.dropFirst().first {
case "server": exit(await ServerBenchmark.run(Array(CommandLine.arguments.dropFirst(2))))
default:
    FileHandle.standardError.write(Data("usage: swifty-bench <subcommand> [options]\nsubcommands: server\n".utf8))
    exit(64)
}
