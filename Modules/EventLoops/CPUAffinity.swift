import Foundation

/// The CPUs this process may run on: its scheduler affinity mask, as `taskset`, systemd's
/// `CPUAffinity=` or a container's cpuset leave it.
///
/// A server sizes its network threads from this, not from the machine's cores: two threads
/// pinned to one core take turns on it, each waking for its own share of the connections, and
/// do less work than one thread would.
public enum CPUAffinity {
    /// The CPUs the calling thread may run on (at start, the process's mask), in increasing
    /// order; `nil` when the kernel does not say.
    ///
    /// Read from `/proc/thread-self/status`, whose `Cpus_allowed` line is the mask that
    /// `sched_getaffinity(2)` returns; Swift's Glibc module does not declare that call.
    public static func allowedCPUs() -> [Int]? {
        for path in ["/proc/thread-self/status", "/proc/self/status"] {
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            return allowedCPUs(status: String(decoding: data, as: UTF8.self))
        }
        return nil
    }

    /// How many CPUs the calling thread may run on; `nil` when the kernel does not say.
    public static func allowedCPUCount() -> Int? {
        allowedCPUs()?.count
    }

    /// The CPUs in the `Cpus_allowed` line of a `/proc/.../status` text: a mask in hexadecimal,
    /// most significant digit first, in comma-separated groups of 32 bits (`3`, `ff,ffffffff`);
    /// `nil` when the line is missing, malformed or allows no CPU.
    static func allowedCPUs(status: String) -> [Int]? {
        guard
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") })
        else { return nil }
        let mask = line.dropFirst("Cpus_allowed:".count).trimmingCharacters(in: .whitespaces)
        var digits: [Int] = []
        for character in mask where character != "," {
            guard let digit = character.hexDigitValue else { return nil }
            digits.append(digit)
        }
        var cpus: [Int] = []
        for (position, digit) in digits.reversed().enumerated() {
            for bit in 0..<4 where digit & (1 << bit) != 0 {
                cpus.append(position * 4 + bit)
            }
        }
        return cpus.isEmpty ? nil : cpus
    }
}
