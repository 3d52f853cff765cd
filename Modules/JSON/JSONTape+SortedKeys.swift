import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension JSONTape {
    /// The document written again with the members of every object sorted by name (by the
    /// UTF-8 bytes of the unescaped name, as Foundation's `.sortedKeys` orders them); scalars
    /// keep their bytes.
    ///
    /// The document must be compact (no white space between tokens), as ``JSONStreamWriter``
    /// writes it: the output then has the same length.
    func sortedCompactDocument(byteCount: Int) -> Data {
        guard byteCount > 0, let output = malloc(byteCount)?.assumingMemoryBound(to: UInt8.self) else {
            return Data()
        }
        var written = 0
        writeSorted(0, to: output, at: &written)
        precondition(written == byteCount, "a JSON document with white space cannot be sorted in place")
        return Data(bytesNoCopy: output, count: written, deallocator: .free)
    }

    private func writeSorted(_ index: Int, to output: UnsafeMutablePointer<UInt8>, at written: inout Int) {
        let entry = self[index]
        switch entry.kind {
        case .array:
            output[written] = UInt8(ascii: "[")
            written += 1
            var element = index + 1
            while element < Int(entry.end) {
                if element > index + 1 {
                    output[written] = UInt8(ascii: ",")
                    written += 1
                }
                writeSorted(element, to: output, at: &written)
                element = next(after: element)
            }
            output[written] = UInt8(ascii: "]")
            written += 1
        case .object:
            var members: [(name: [UInt8], key: Int)] = []
            members.reserveCapacity(Int(entry.count))
            var key = index + 1
            while key < Int(entry.end) {
                members.append((Array(keyString(at: key).utf8), key))
                key = next(after: key + 1)
            }
            members.sort { $0.name.lexicographicallyPrecedes($1.name) }
            output[written] = UInt8(ascii: "{")
            written += 1
            for (offset, member) in members.enumerated() {
                if offset > 0 {
                    output[written] = UInt8(ascii: ",")
                    written += 1
                }
                copyRaw(member.key, to: output, at: &written)
                output[written] = UInt8(ascii: ":")
                written += 1
                writeSorted(member.key + 1, to: output, at: &written)
            }
            output[written] = UInt8(ascii: "}")
            written += 1
        default:
            copyRaw(index, to: output, at: &written)
        }
    }

    /// Copies a scalar's bytes as they are in the document (a string with its quotes).
    private func copyRaw(_ index: Int, to output: UnsafeMutablePointer<UInt8>, at written: inout Int) {
        let entry = self[index]
        let quoted = entry.kind == .string ? 1 : 0
        let start = Int(entry.start) - quoted
        let count = Int(entry.end) + quoted - start
        (output + written).initialize(from: bytes + start, count: count)
        written += count
    }
}
