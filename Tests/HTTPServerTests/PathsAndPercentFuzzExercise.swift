import Foundation
import HTTPServer
import HTTPTypes

/// What the PathsAndPercent fuzz target and its regression test run for one input.
///
/// The input is lines: the first is a request (`METHOD target`), each further one a route
/// (`METHOD pattern`, at most 8). The router built from the routes answers the request, and a
/// matcher written here from the router's documented rules says what it must answer: the first
/// route whose pattern matches (a literal segment equal to the path segment or to its decoding, a
/// parameter taking any non-empty segment, decoded), `HEAD` falling back to `GET`, else 400 for a
/// malformed escape in a matching route's parameter, 405 with `Allow` for another method, 404.
/// Then every line goes through percent-decoding: ``PercentEncoding/decode(_:)-(Substring)`` must
/// agree with a decoder written here, encoding a line as a path segment or a query component and
/// decoding it gives the line back, and ``RequestQuery`` splits and decodes the request's query as
/// the reference does. A difference is a `PathsAndPercentFuzzExercise.Violation`.
///
/// The same file is compiled into the libFuzzer binary (Tools/fuzz/run) and into the test target.
enum PathsAndPercentFuzzExercise {
    /// A broken invariant, with the input concerned.
    struct Violation: Error, CustomStringConvertible {
        var message: String
        var input: String
        var description: String { "\(message); input: \(input.debugDescription)" }
    }

    /// What the router answered, reduced to what the reference predicts.
    enum Outcome: Equatable, CustomStringConvertible {
        /// Route `index` with its parameters, as `name=value` lines.
        case routed(Int, String)
        case refused(Int, allow: String?)

        var description: String {
            switch self {
            case .routed(let index, let parameters): "route \(index) \(parameters.debugDescription)"
            case .refused(let status, let allow): "\(status) allow: \(allow ?? "-")"
            }
        }
    }

    static func run(_ input: [UInt8]) async throws(Violation) {
        let text = String(decoding: input, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let request = split(lines[0])
        let routes = lines.dropFirst().prefix(8).map(split)
        try await checkRouting(request: request, routes: routes, text: text)
        for line in lines {
            try checkPercent(line, text: text)
        }
        try checkQuery(ServerRequest(method: request.method, target: request.rest).query, text: text)
    }

    /// `METHOD rest`: the text before the first space and after it.
    private static func split(_ line: String) -> (method: String, rest: String) {
        guard let space = line.firstIndex(of: " ") else { return (line, "/") }
        return (String(line[..<space]), String(line[line.index(after: space)...]))
    }

    private static func checkRouting(
        request: (method: String, rest: String), routes: [(method: String, rest: String)], text: String
    ) async throws(Violation) {
        var router = Router()
        for (index, route) in routes.enumerated() {
            router.add(route.method, route.rest) { _, parameters in
                let lines = parameters.pairs.map { "\($0.name)=\($0.value)" }
                return ServerResponse(
                    status: 200, headers: ["x-route": "\(index)"], body: Data(lines.joined(separator: "\n").utf8))
            }
        }
        let serverRequest = ServerRequest(method: request.method, target: request.rest)
        let response = await router.handle(serverRequest)
        let outcome: Outcome
        if let index = response.headers["x-route"].flatMap({ Int($0) }), response.status == 200 {
            outcome = .routed(index, String(decoding: response.body, as: UTF8.self))
        } else {
            outcome = .refused(response.status, allow: response.headers["Allow"])
        }
        let expected = reference(method: serverRequest.method, path: serverRequest.path, routes: routes)
        guard outcome == expected else {
            throw Violation(message: "the router answers \(outcome), the reference \(expected)", input: text)
        }
    }

    /// The router's rules, written apart from it.
    static func reference(method: String, path: String, routes: [(method: String, rest: String)]) -> Outcome {
        // Bytes, not characters: a `/` followed by a combining mark is still a separator.
        func segments(_ path: String) -> [Substring] {
            let utf8 = path.utf8.first == UInt8(ascii: "/") ? Substring(path).utf8.dropFirst() : Substring(path).utf8
            return utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { Substring($0) }
        }
        let parts = segments(path)
        var allowed: [String] = []
        var fallback: Outcome?
        for (index, route) in routes.enumerated() {
            let pattern = segments(route.rest)
            guard pattern.count == parts.count else { continue }
            var parameters: [String] = []
            var matches = true
            var malformed = false
            for (segment, part) in zip(pattern, parts) {
                if segment.hasPrefix(":") {
                    guard !part.isEmpty else {
                        matches = false
                        break
                    }
                    guard let value = referenceDecode(part) else {
                        malformed = true
                        break
                    }
                    parameters.append("\(segment.dropFirst())=\(value)")
                } else if !(part == segment || referenceDecode(part).map({ $0 == segment }) == true) {
                    matches = false
                    break
                }
            }
            guard matches else { continue }
            if malformed { return .refused(400, allow: nil) }
            let lines = parameters.joined(separator: "\n")
            if route.method == method { return .routed(index, lines) }
            if route.method == "GET" && method == "HEAD" && fallback == nil { fallback = .routed(index, lines) }
            if !allowed.contains(route.method) { allowed.append(route.method) }
        }
        if let fallback { return fallback }
        guard !allowed.isEmpty else { return .refused(404, allow: nil) }
        if allowed.contains("GET") && !allowed.contains("HEAD") { allowed.append("HEAD") }
        return .refused(405, allow: allowed.joined(separator: ", "))
    }

    /// RFC 3986 §2.1 decoding: `%HH` to a byte, every other byte as it is; `nil` for a `%` not
    /// followed by two hex digits or a result that is not UTF-8.
    static func referenceDecode(_ text: Substring) -> String? {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%") {
                guard index + 2 < bytes.count,
                    let value = UInt8(String(decoding: bytes[index + 1...index + 2], as: UTF8.self), radix: 16),
                    bytes[index + 1] != UInt8(ascii: "+"), bytes[index + 1] != UInt8(ascii: "-")
                else { return nil }
                out.append(value)
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    private static func checkPercent(_ line: String, text: String) throws(Violation) {
        let decoded = PercentEncoding.decode(Substring(line))
        let expected = referenceDecode(Substring(line))
        guard decoded.map({ Array($0.utf8) }) == expected.map({ Array($0.utf8) }) else {
            throw Violation(
                message:
                    "decode(\(line.debugDescription)) is \(decoded.debugDescription), not \(expected.debugDescription)",
                input: text)
        }
        let segment = PercentEncoding.pathSegment(line)
        guard segment.utf8.allSatisfy({ isUnreserved($0) || $0 == UInt8(ascii: "%") }),
            PercentEncoding.decode(Substring(segment)).map({ $0.utf8.elementsEqual(line.utf8) }) == true
        else {
            throw Violation(message: "the path segment \(segment.debugDescription) does not decode back", input: text)
        }
        var component: [UInt8] = []
        PercentEncoding.appendQueryComponent(line, to: &component)
        let encoded = String(decoding: component, as: UTF8.self)
        guard component.allSatisfy({ isUnreserved($0) || $0 == UInt8(ascii: "%") }),
            PercentEncoding.decode(Substring(encoded)).map({ $0.utf8.elementsEqual(line.utf8) }) == true
        else {
            throw Violation(
                message: "the query component \(encoded.debugDescription) does not decode back", input: text)
        }
    }

    /// RFC 3986 unreserved: `A-Z a-z 0-9 - . _ ~`.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// ``RequestQuery`` against the reference: pairs split at `&` (empty pieces dropped), then at
    /// the first `=`, each side decoded; refused when any side does not decode.
    private static func checkQuery(_ raw: String?, text: String) throws(Violation) {
        var expected: [String]? = []
        for piece in Substring(raw ?? "").utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let name: Substring
            let value: Substring
            if let equals = piece.firstIndex(of: UInt8(ascii: "=")) {
                name = Substring(piece[..<equals])
                value = Substring(piece[piece.index(after: equals)...])
            } else {
                name = Substring(piece)
                value = ""
            }
            guard let decodedName = referenceDecode(name), let decodedValue = referenceDecode(value) else {
                expected = nil
                break
            }
            expected?.append(decodedName + "\u{0}" + decodedValue)
        }
        let actual = (try? RequestQuery(raw))?.pairs.map { $0.name + "\u{0}" + $0.value }
        guard actual?.map({ Array($0.utf8) }) == expected?.map({ Array($0.utf8) }) else {
            throw Violation(
                message: "RequestQuery reads \(actual.debugDescription), the reference \(expected.debugDescription)",
                input: text)
        }
    }
}
