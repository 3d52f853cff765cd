import SandboxUpstreams

#if canImport(Glibc)
    import Glibc
#endif

// Everything is in SandboxCommand, a tested library type; this only passes the arguments and exits.
exit(await SandboxCommand.run(Array(CommandLine.arguments.dropFirst())))
