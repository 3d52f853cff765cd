/// Writes commands in RESP's argv form (an array of bulk strings), the form that carries any
/// bytes; hiredis's own formatters are variadic C or need C arrays of pointers, so the few lines
/// of framing are written here.
enum RedisCommandEncoder {
    /// Appends `arguments` as one command.
    static func append(_ arguments: [RedisArgument], to buffer: inout [UInt8]) {
        appendHeader(UInt8(ascii: "*"), arguments.count, to: &buffer)
        for argument in arguments {
            appendHeader(UInt8(ascii: "$"), argument.bytes.count, to: &buffer)
            buffer.append(contentsOf: argument.bytes)
            buffer.append(contentsOf: [13, 10])
        }
    }

    private static func appendHeader(_ marker: UInt8, _ count: Int, to buffer: inout [UInt8]) {
        buffer.append(marker)
        buffer.append(contentsOf: String(count).utf8)
        buffer.append(contentsOf: [13, 10])
    }

    /// A command's name for messages: its first argument in upper case, never the others (they
    /// may hold secrets).
    static func name(of arguments: [RedisArgument]) -> String {
        guard let first = arguments.first else { return "(empty command)" }
        let printable = first.bytes.prefix(32).allSatisfy { $0 >= 0x21 && $0 < 0x7F }
        return printable ? String(decoding: first.bytes.prefix(32), as: UTF8.self).uppercased() : "(binary command)"
    }

    /// Commands that block the connection until data comes or their own timeout ends.
    private static let blockingNames: Set<String> = [
        "BLPOP", "BRPOP", "BRPOPLPUSH", "BLMOVE", "BLMPOP", "BZPOPMIN", "BZPOPMAX", "BZMPOP", "WAIT", "WAITAOF",
    ]

    /// Whether a command blocks its connection (`BLPOP`, `XREAD ... BLOCK`, `WAIT`, ...): calls
    /// queued behind it on a shared connection would wait for as long as it does.
    static func isBlocking(_ arguments: [RedisArgument]) -> Bool {
        guard let first = arguments.first?.bytes.first else { return false }
        switch first | 0x20 {
        case UInt8(ascii: "b"), UInt8(ascii: "w"):
            return blockingNames.contains(name(of: arguments))
        case UInt8(ascii: "x"):
            let command = name(of: arguments)
            guard command == "XREAD" || command == "XREADGROUP" else { return false }
            return arguments.dropFirst().contains { Array($0.bytes.map { $0 & 0xDF }) == Array("BLOCK".utf8) }
        default:
            return false
        }
    }
}
