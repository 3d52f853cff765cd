import SigningTool

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes all of `bytes` to a file descriptor.
func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
        if written < 0 && errno == EINTR { continue }
        if written <= 0 { return }
        offset += written
    }
}

// Reads standard input (bounded), runs the tool, writes its output, exits with its status.
var input: [UInt8] = []
var chunk = [UInt8](repeating: 0, count: 65_536)
while input.count <= RawHTTPRequest.maximumSize {
    let count = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
    if count < 0 && errno == EINTR { continue }
    if count <= 0 { break }
    input.append(contentsOf: chunk[..<count])
}
let result = await SigningTool.run(Array(CommandLine.arguments.dropFirst()), input: input)
writeAll(1, result.output)
writeAll(2, Array(result.error.utf8))
exit(result.exitCode)
