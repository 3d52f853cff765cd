import Foundation
import ModuleScaffolding

// A thin shell over NewModuleCommand, which holds all the logic and is tested.
let outcome = NewModuleCommand.run(
    Array(CommandLine.arguments.dropFirst()),
    currentDirectory: FileManager.default.currentDirectoryPath
)
FileHandle.standardOutput.write(Data(outcome.output.utf8))
FileHandle.standardError.write(Data(outcome.errorOutput.utf8))
exit(outcome.exitCode)
