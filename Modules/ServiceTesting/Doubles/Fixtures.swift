public import Foundation
public import HTTPTypes
public import JSON
import ServiceCore

/// Loads test data (JSON, bytes) from a test target's resources and builds responses from it.
///
/// Declare the folder as a resource of the test target (`resources: [.copy("Fixtures")]`), then:
///
/// ```swift
/// let fixtures = Fixtures(bundle: .module, subdirectory: "Fixtures")
/// let user = try fixtures.decode(User.self, from: "user.json")
/// mock.on(.operation("profile"), .response(try fixtures.response(200, json: "user.json")))
/// ```
public struct Fixtures: Sendable {
    /// The folder the fixtures are read from.
    public let directory: URL

    /// Fixtures in a bundle's resources, optionally in a subdirectory of them.
    /// - Parameters:
    ///   - bundle: The test target's bundle, usually `Bundle.module`.
    ///   - subdirectory: The copied folder's name, for example `Fixtures`.
    public init(bundle: Bundle, subdirectory: String? = nil) {
        let root = bundle.resourceURL ?? bundle.bundleURL
        directory = subdirectory.map { root.appendingPathComponent($0, isDirectory: true) } ?? root
    }

    /// Fixtures in a folder on disk.
    public init(directory: URL) {
        self.directory = directory
    }

    /// The bytes of the file `name` (relative to ``directory``, extension included).
    /// - Throws: ``FixtureError`` with code `notFound` or `unreadable`.
    public func data(_ name: String) throws -> Data {
        let url = directory.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw FixtureError(.notFound, "no fixture '\(name)' in \(directory.path)")
        }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw FixtureError(.unreadable, "the fixture '\(name)' could not be read: \(error)")
        }
    }

    /// The text of the file `name`, as UTF-8.
    /// - Throws: ``FixtureError`` with code `notFound`, `unreadable`, or `undecodable` (not UTF-8).
    public func text(_ name: String) throws -> String {
        guard let text = String(data: try data(name), encoding: .utf8) else {
            throw FixtureError(.undecodable, "the fixture '\(name)' is not UTF-8 text")
        }
        return text
    }

    /// Decodes the JSON file `name` as `type`.
    /// - Throws: ``FixtureError`` with code `notFound`, `unreadable`, or `undecodable` (with the
    ///   decoder's explanation).
    public func decode<T: Decodable>(
        _ type: T.Type, from name: String, decoder: JSON.StreamingJSONDecoder = JSON.StreamingJSONDecoder()
    ) throws
        -> T
    {
        let bytes = try data(name)
        do {
            return try decoder.decode(type, from: bytes)
        } catch {
            throw FixtureError(.undecodable, "the fixture '\(name)' does not decode as \(T.self): \(error)")
        }
    }

    /// A response whose body is the file `name`.
    /// - Parameters:
    ///   - status: The status code.
    ///   - name: The file, relative to ``directory``.
    ///   - contentType: The `Content-Type`; from the extension when `nil` (`json`, `txt`, else bytes).
    ///   - headers: More header fields.
    public func response(_ status: Int, body name: String, contentType: String? = nil, headers: HTTPHeaders = [:])
        throws -> HTTPResponse
    {
        var all = headers
        if !all.contains("Content-Type") {
            all.add(name: "Content-Type", value: contentType ?? Fixtures.contentType(forFile: name))
        }
        return HTTPResponse(status: status, headers: all, body: try data(name))
    }

    /// A JSON response whose body is the file `name`.
    public func response(_ status: Int, json name: String, headers: HTTPHeaders = [:]) throws -> HTTPResponse {
        try response(status, body: name, contentType: "application/json", headers: headers)
    }

    /// A JSON response encoding `value`.
    /// - Throws: ``FixtureError`` with code `undecodable` when `value` does not encode.
    public static func jsonResponse(
        _ status: Int,
        _ value: some Encodable,
        encoder: any JSON.JSONBodyEncoder = JSON.StreamingJSONEncoder(),
        headers: HTTPHeaders = [:]
    ) throws -> HTTPResponse {
        let body: Data
        do {
            body = try encoder.encode(value)
        } catch {
            throw FixtureError(.undecodable, "\(type(of: value)) does not encode as JSON: \(error)")
        }
        var all = headers
        if !all.contains("Content-Type") { all.add(name: "Content-Type", value: "application/json") }
        return HTTPResponse(status: status, headers: all, body: body)
    }

    private static func contentType(forFile name: String) -> String {
        switch (name as NSString).pathExtension.lowercased() {
        case "json": "application/json"
        case "txt": "text/plain; charset=utf-8"
        case "html": "text/html; charset=utf-8"
        default: "application/octet-stream"
        }
    }
}

/// A fixture that could not be found, read or decoded.
public struct FixtureError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// No file of that name.
        public static let notFound = Code("fixture not found")
        /// The file exists but could not be read.
        public static let unreadable = Code("fixture unreadable")
        /// The contents are not what was asked for (JSON that does not decode, text that is not UTF-8).
        public static let undecodable = Code("fixture undecodable")

        /// The code's name.
        public var description: String { name }
    }

    /// What went wrong.
    public var code: Code
    /// Which fixture, where it was looked for, and what the decoder said.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }
}
