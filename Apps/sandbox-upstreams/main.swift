import SandboxUpstreams

#if canImport(Glibc)
    import Glibc
#endif

// Everything is in SandboxCommand, a tested library type; this only passes the arguments and exits.
// The signals are blocked before any other thread starts, so every thread inherits the block.
SandboxCommand.blockTerminationSignals()
exit(await SandboxCommand.run(Array(CommandLine.arguments.dropFirst())))
