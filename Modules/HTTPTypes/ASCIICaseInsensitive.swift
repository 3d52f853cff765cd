/// Comparing bytes with ASCII letters folded to lower case: how header names, methods and other
/// RFC 9110 tokens compare. One definition for the header list, the libcurl transfer and strings.
package enum ASCIICaseInsensitive {
    /// Whether `lhs` and `rhs` hold the same bytes, `A`-`Z` matching `a`-`z`.
    @inlinable
    package static func equal(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for index in 0..<lhs.count where lhs[index] != rhs[index] {
            if lowercased(lhs[index]) != lowercased(rhs[index]) { return false }
        }
        return true
    }

    /// Whether `bytes` is `name`, `A`-`Z` matching `a`-`z`.
    @inlinable
    package static func equal(_ bytes: UnsafeRawBufferPointer, _ name: StaticString) -> Bool {
        equal(bytes, UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    }

    /// `byte` with `A`-`Z` mapped to `a`-`z`.
    @inlinable
    package static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= 65 && byte <= 90 ? byte | 0x20 : byte
    }
}
