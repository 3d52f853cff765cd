import Foundation
import SwiftyDaemon

// The daemon's entry point; everything else is in SwiftyDaemon, where tests can reach it.
// The allocator setting first, while this is the process's only thread.
AllocatorTuning.apply()
exit(
    await DaemonCommand.run(
        arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
