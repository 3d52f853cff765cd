import Foundation
import Testing

@testable import EventLoops

/// The default loop count follows the CPUs the process may run on.
struct CPUAffinityTests {
    /// A `Cpus_allowed` mask (as `/proc/.../status` prints it) and the CPUs it allows.
    @Test(arguments: [
        ("Cpus_allowed:\t1", [0]),
        ("Cpus_allowed:\t3", [0, 1]),
        ("Cpus_allowed:\t4", [2]),
        ("Cpus_allowed:\tf0", [4, 5, 6, 7]),
        ("Cpus_allowed:\tA", [1, 3]),
        ("Cpus_allowed:\t00000000,00000000,00000100", [8]),
        ("Cpus_allowed:\t00000001,00000000", [32]),
    ])
    func listsTheCPUsOfAMask(line: String, cpus: [Int]) {
        #expect(CPUAffinity.allowedCPUs(status: line) == cpus)
    }

    @Test func countsAWideMask() {
        #expect(CPUAffinity.allowedCPUs(status: "Cpus_allowed:\tff,ffffffff")?.count == 40)
        #expect(CPUAffinity.allowedCPUs(status: "Cpus_allowed:\tff,ffffffff") == Array(0..<40))
    }

    @Test func findsTheMaskAmongTheOtherLines() {
        let status = """
            Name:\tswiftyd
            Threads:\t7
            Cpus_allowed:\t5
            Cpus_allowed_list:\t0,2
            Mems_allowed:\t00000001
            """
        #expect(CPUAffinity.allowedCPUs(status: status) == [0, 2])
    }

    /// No count rather than a wrong one: the caller then falls back to the number of cores.
    @Test(arguments: [
        "Name:\tswiftyd\nThreads:\t1",
        "Cpus_allowed:\t",
        "Cpus_allowed:\t0",
        "Cpus_allowed:\t00000000,00000000",
        "Cpus_allowed:\t3g",
        "Cpus_allowed:\t-1",
    ])
    func reportsNothingForAMissingOrMalformedMask(status: String) {
        #expect(CPUAffinity.allowedCPUs(status: status) == nil)
    }

    @Test func readsThisProcessesMaskAndBoundsTheDefault() throws {
        let allowed = try #require(CPUAffinity.allowedCPUCount())
        #expect(CPUAffinity.allowedCPUs()?.count == allowed)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        #expect((1...max(cores, allowed)).contains(allowed))
        #expect(EventLoopGroup.defaultLoopCount == min(cores, allowed))
    }
}
