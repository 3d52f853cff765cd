import CMimalloc
import Foundation
import SwiftyDaemon

// The daemon's entry point; everything else is in SwiftyDaemon, where tests can reach it.
// The executable links mimalloc (importing CMimalloc links it; nothing calls it), which then
// serves the whole process's allocations. Should glibc's allocator serve it instead, its setting
// comes first, while this is the process's only thread.
AllocatorTuning.apply()
exit(
    await DaemonCommand.run(
        arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
