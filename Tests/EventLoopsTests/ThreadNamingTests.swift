import EventLoops
import Foundation
import Synchronization
import Testing

/// A thread's name reaches the kernel, where `top -H`, `perf` and `/proc` read it.
struct ThreadNamingTests {
    @Test(arguments: ["swifty.test", "a-name-longer-than-fifteen-bytes"])
    func theKernelSeesTheName(_ name: String) {
        let seen = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            ThreadNaming.nameCurrentThread(name)
            let comm = FileManager.default.contents(atPath: "/proc/thread-self/comm").map {
                String(decoding: $0, as: UTF8.self)
            }
            seen.withLock { $0 = comm }
            done.signal()
        }
        thread.start()
        #expect(done.wait(timeout: .now() + 10) == .success)
        // The kernel keeps 15 bytes and ends the file with a newline.
        #expect(seen.withLock { $0 } == String(name.prefix(15)) + "\n")
    }
}
