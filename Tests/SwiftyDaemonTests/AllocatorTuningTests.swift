import Testing

@testable import SwiftyDaemon

struct AllocatorTuningTests {
    @Test func glibcTakesTheFastbinSetting() {
        #if canImport(Glibc)
            #expect(AllocatorTuning.apply())
        #else
            #expect(!AllocatorTuning.apply())
        #endif
    }
}
