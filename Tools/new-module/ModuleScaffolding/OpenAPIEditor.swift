import Foundation

/// Adds a new module's example route to the app API's OpenAPI document
/// (`Apps/SwiftyDaemon/Resources/openapi.json`, also `docs/openapi.json`) as text: the operation is
/// inserted as the first member of `paths`, so the rest of the document keeps its layout.
public enum OpenAPIEditor {
    /// The document's path relative to the repository root.
    public static let path = "Apps/SwiftyDaemon/Resources/openapi.json"

    /// The line that opens the `paths` object.
    private static let pathsOpening = "  \"paths\": {"

    /// The OpenAPI path of the module's example route: `/v1/inventory/items/{id}`.
    public static func examplePath(_ spec: ModuleSpec) -> String {
        spec.exampleRoute.replacingOccurrences(of: ":id", with: "{id}")
    }

    /// The document with the example route of `spec` documented.
    /// - Throws: ``ScaffoldingError`` with code `repository` when the document has no `paths`
    ///   line in the expected shape, or `nameClash` when the path is already documented.
    public static func adding(_ spec: ModuleSpec, to document: String) throws(ScaffoldingError) -> String {
        var lines = document.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let opening = lines.firstIndex(of: pathsOpening) else {
            throw ScaffoldingError(.repository, "\(path) has no line \(pathsOpening) to add the example route under")
        }
        let path = examplePath(spec)
        guard !document.contains("\"\(path)\"") else {
            throw ScaffoldingError(.nameClash, "\(path) is already in \(Self.path)")
        }
        lines.insert(contentsOf: operation(spec, path: path), at: lines.index(after: opening))
        return lines.joined(separator: "\n")
    }

    /// The path item, indented as a member of `paths`, ending with a comma (other paths follow).
    private static func operation(_ spec: ModuleSpec, path: String) -> [String] {
        let common = ["400", "401", "404", "413", "414", "429", "431", "502", "503", "504"]
        let names = [
            "400": "BadRequest", "401": "Unauthorized", "404": "NotFound", "413": "TooLarge", "414": "TargetTooLong",
            "429": "RateLimited", "431": "HeadersTooLarge", "502": "BadGateway", "503": "Unavailable",
            "504": "GatewayTimeout",
        ]
        let references = common.map { status in
            "        \"\(status)\": { \"$ref\": \"#/components/responses/\(names[status] ?? "")\" }"
        }
        return [
            "    \"\(path)\": {",
            "      \"get\": {",
            "        \"operationId\": \"get\(spec.name)Item\",",
            "        \"summary\": \"An item of the \(spec.slug) module\",",
            "        \"description\": \"The generated example route: replace it with the module's real routes.\",",
            "        \"tags\": [\"\(spec.slug)\"],",
            "        \"parameters\": [",
            "          {",
            "            \"name\": \"id\", \"in\": \"path\", \"required\": true, \"description\": \"The item's id.\",",
            "            \"schema\": { \"type\": \"string\", \"pattern\": \"^[A-Za-z0-9._~-]{1,128}$\" }",
            "          }",
            "        ],",
            "        \"responses\": {",
            "        \"200\": {",
            "          \"description\": \"The item.\",",
            "          \"headers\": { \"X-Request-ID\": { \"$ref\": \"#/components/headers/RequestID\" } },",
            "          \"content\": { \"application/json\": { \"schema\": {",
            "            \"type\": \"object\", \"required\": [\"id\", \"name\"],",
            "            \"properties\": { \"id\": { \"type\": \"string\" }, \"name\": { \"type\": \"string\" } }",
            "          } } }",
            "        },",
        ] + references.enumerated().map { $0.offset == references.count - 1 ? $0.element : $0.element + "," } + [
            "        }",
            "      }",
            "    },",
        ]
    }
}
