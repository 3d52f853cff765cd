import Foundation
import RequestSigning
import Testing

struct KeyLoadingTests {
    /// A fresh directory for one test, removed afterwards.
    private final class TemporaryDirectory {
        let url: URL
        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("swifty-keys-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(at: url) }

        func file(_ name: String, _ content: String) throws -> String {
            let path = url.appendingPathComponent(name).path
            try Data(content.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    private func expectFailure(_ code: KeyLoadingError.Code, path: String, mustNotMention secret: String? = nil) {
        do {
            _ = try SigningKey.load(id: "k", tag: "UserModule", fromFile: path)
            Issue.record("loaded a key from \(path); expected \(code)")
        } catch {
            #expect(error.code == code, "\(error)")
            #expect(error.path == path)
            #expect(error.description.contains(path))
            if let secret { #expect(!error.description.contains(secret)) }
        }
    }

    @Test func validFilesLoad() throws {
        let directory = try TemporaryDirectory()
        let secret = Data((0..<48).map { UInt8($0) })
        for (name, content) in [
            ("plain", secret.base64EncodedString()),
            ("newline", secret.base64EncodedString() + "\n"),
            ("crlf", "  " + secret.base64EncodedString() + "\r\n"),
            ("unpadded", String(Data((0..<32).map { UInt8($0) }).base64EncodedString().dropLast())),
        ] {
            let key = try SigningKey.load(
                id: "k-\(name)", tag: "UserModule", fromFile: try directory.file(name, content))
            #expect(key.id == "k-\(name)")
            #expect(key.tag == "UserModule")
            #expect(key.algorithm == .hmacSHA256)
        }
        // The loaded key signs like one made from the same bytes.
        let loaded = try SigningKey.load(
            id: "k", tag: nil, fromFile: try directory.file("same", secret.base64EncodedString()))
        let direct = try SigningKey(id: "k", tag: nil, secret: Array(secret))
        #expect(
            try loaded.secret.authenticationCode(for: [1, 2, 3]) == direct.secret.authenticationCode(for: [1, 2, 3]))
    }

    @Test func missingFile() throws {
        let directory = try TemporaryDirectory()
        expectFailure(.missing, path: directory.url.appendingPathComponent("absent.key").path)
        expectFailure(.missing, path: directory.url.appendingPathComponent("no/such/dir.key").path)
    }

    @Test func unreadableFile() throws {
        let directory = try TemporaryDirectory()
        expectFailure(.unreadable, path: directory.url.path)
        let big = try directory.file("big", String(repeating: "A", count: 20_000))
        expectFailure(.unreadable, path: big)
    }

    @Test func emptyFile() throws {
        let directory = try TemporaryDirectory()
        expectFailure(.empty, path: try directory.file("empty", ""))
        expectFailure(.empty, path: try directory.file("blank", " \n\t\n"))
    }

    @Test func notBase64() throws {
        let directory = try TemporaryDirectory()
        let secretText = "this-is-a-raw-secret-not-base64-!!"
        expectFailure(.notBase64, path: try directory.file("raw", secretText), mustNotMention: secretText)
        let line = Data(repeating: 7, count: 32).base64EncodedString()
        expectFailure(.notBase64, path: try directory.file("two-lines", line + "\n" + line + "\n"))
        expectFailure(.notBase64, path: try directory.file("url-safe", "____" + line))
    }

    @Test func tooShort() throws {
        let directory = try TemporaryDirectory()
        expectFailure(.tooShort, path: try directory.file("short", Data(repeating: 1, count: 31).base64EncodedString()))
    }

    @Test func invalidIdentifier() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.file("ok", Data(repeating: 1, count: 32).base64EncodedString())
        #expect(throws: KeyLoadingError.self) { try SigningKey.load(id: "", tag: nil, fromFile: path) }
    }
}
