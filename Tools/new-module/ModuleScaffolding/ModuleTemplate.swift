import Foundation

/// The files of a new feature module and its tests, in the shape of `UserModule`, `FeedModule`
/// and `PaymentModule`: a service enum with one example case, its request and validation
/// extensions, an identity, a domain and an error envelope (names for ServiceCore's shared
/// types), a model and a typed client; tests of the exact request, decoding, error envelopes,
/// input validation, the domain and the identity; and the daemon's route group of the module.
public enum ModuleTemplate {
    /// Every file to create, module first, then tests, then the daemon's route group, each path
    /// under the repository root.
    public static func files(for spec: ModuleSpec) -> [GeneratedFile] {
        let module = spec.moduleDirectory
        let tests = spec.testDirectory
        let name = spec.name
        return [
            GeneratedFile(path: "\(module)/\(name)Service.swift", contents: service(spec)),
            GeneratedFile(path: "\(module)/\(name)Service+Request.swift", contents: serviceRequest(spec)),
            GeneratedFile(path: "\(module)/\(name)Service+Validation.swift", contents: serviceValidation(spec)),
            GeneratedFile(path: "\(module)/\(name)Client.swift", contents: client(spec)),
            GeneratedFile(path: "\(module)/\(name)Domain.swift", contents: domain(spec)),
            GeneratedFile(path: "\(module)/\(name)ErrorEnvelope.swift", contents: errorEnvelope(spec)),
            GeneratedFile(path: "\(module)/\(spec.moduleName)Identity.swift", contents: identity(spec)),
            GeneratedFile(path: "\(module)/Models/\(name)Item.swift", contents: item(spec)),
            GeneratedFile(path: "\(tests)/\(name)ServiceRequestTests.swift", contents: requestTests(spec)),
            GeneratedFile(path: "\(tests)/\(name)ClientTests.swift", contents: clientTests(spec)),
            GeneratedFile(path: "\(tests)/\(name)DomainTests.swift", contents: domainTests(spec)),
            GeneratedFile(path: routesPath(spec), contents: routes(spec)),
        ]
    }

    /// A Swift string literal's contents for `text` (quotes and backslashes escaped).
    static func literal(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }
}

extension ModuleTemplate {
    /// A collection literal as swift-format lays it out: on the `opening` line when it fits in
    /// 120 columns, else one element per line with a trailing comma.
    /// - Parameters:
    ///   - elements: The elements' source text.
    ///   - opening: The text before `[`, including the line's indentation.
    ///   - indentation: The indentation of the line holding `]`.
    static func collection(_ elements: [String], opening: String, indentation: Int) -> String {
        let single = opening + "[" + elements.joined(separator: ", ") + "]"
        if single.count <= 120 { return single }
        let inner = String(repeating: " ", count: indentation + 4)
        return opening + "[\n" + elements.map { inner + $0 + ",\n" }.joined()
            + String(repeating: " ", count: indentation) + "]"
    }
}
