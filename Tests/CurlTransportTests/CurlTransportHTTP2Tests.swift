import CurlTransport
import Foundation
import HTTPTypes
import ServiceCore
import ServiceTesting
import Testing

/// HTTP/2 over TLS against a local nginx with a self-signed certificate for 127.0.0.1. Runs only
/// where `nginx` (with the http_v2 module) and `openssl` are installed.
struct CurlTransportHTTP2Tests {
    static let tools = ["/usr/sbin/nginx", "/usr/bin/openssl"]
    static var toolsInstalled: Bool { tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) } }

    /// A running nginx serving TLS on 127.0.0.1 with HTTP/2 offered in ALPN.
    private final class TLSUpstream {
        let directory: URL
        let port: Int
        private let nginx: ChildProcess

        init() async throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("swifty-h2-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try await Self.run(
                CurlTransportHTTP2Tests.tools[1],
                [
                    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", directory.appendingPathComponent("key.pem").path,
                    "-out", directory.appendingPathComponent("cert.pem").path,
                ]
            )
            port = try ScriptedSocketServer.closedPort()
            let path = directory.path
            let configuration = """
                worker_processes 1;
                daemon off;
                pid \(path)/nginx.pid;
                error_log \(path)/error.log warn;
                events { worker_connections 256; }
                http {
                    access_log off;
                    client_body_temp_path \(path)/body;
                    proxy_temp_path \(path)/proxy;
                    fastcgi_temp_path \(path)/fastcgi;
                    uwsgi_temp_path \(path)/uwsgi;
                    scgi_temp_path \(path)/scgi;
                    server {
                        listen 127.0.0.1:\(port) ssl http2;
                        ssl_certificate \(path)/cert.pem;
                        ssl_certificate_key \(path)/key.pem;
                        location / {
                            add_header X-Connection $connection always;
                            return 200 "$server_protocol";
                        }
                    }
                }
                """
            try configuration.write(
                to: directory.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
            nginx = try ChildProcess(
                CurlTransportHTTP2Tests.tools[0],
                arguments: ["-p", path, "-c", directory.appendingPathComponent("nginx.conf").path],
                output: .discarded)
        }

        var certificatePath: String { directory.appendingPathComponent("cert.pem").path }
        var url: URL { URL(string: "https://127.0.0.1:\(port)/")! }

        /// Runs `body` with a started upstream and stops it afterwards, whatever happens.
        static func with(_ body: (TLSUpstream) async throws -> Void) async throws {
            let upstream = try await TLSUpstream()
            do {
                try await body(upstream)
            } catch {
                await upstream.stop()
                throw error
            }
            await upstream.stop()
        }

        func stop() async {
            // nginx stops its worker before it exits; a master still running after 10 s is killed.
            nginx.signal(SIGTERM)
            _ = await nginx.waitForExitOrKill(timeout: .seconds(10))
            try? FileManager.default.removeItem(at: directory)
        }

        private static func run(_ tool: String, _ arguments: [String]) async throws {
            let outcome = try await ChildProcess.run(tool, arguments: arguments, output: .discarded)
            guard let termination = outcome.termination, termination.status == 0 else {
                throw TestServerError(.serverFailed, "\(tool) \(outcome.termination?.description ?? "timed out")")
            }
        }
    }

    @Test(.enabled(if: toolsInstalled))
    func concurrentRequestsAreMultiplexedOnOneHTTP2Connection() async throws {
        try await TLSUpstream.with { upstream in
            let transport = CurlTransport(configuration: .init(caBundlePath: upstream.certificatePath))
            // Wait (bounded) for nginx to listen.
            var ready = false
            for _ in 0..<100 where !ready {
                ready =
                    (try? await transport.send(HTTPRequest(method: .get, url: upstream.url, timeout: .seconds(2))))
                    != nil
                if !ready { try await Task.sleep(for: .milliseconds(50)) }
            }
            try #require(ready, "nginx did not start")
            let request = HTTPRequest(method: .get, url: upstream.url, timeout: .seconds(5))
            let responses = try await withThrowingTaskGroup(of: HTTPResponse.self) { group in
                for _ in 0..<20 {
                    group.addTask { try await transport.send(request) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(responses.allSatisfy { String(decoding: $0.body, as: UTF8.self) == "HTTP/2.0" })
            let connections = Set(responses.compactMap { $0.headers["X-Connection"] })
            #expect(connections.count == 1)
            await transport.shutdown()
        }
    }

    @Test(.enabled(if: toolsInstalled))
    func anUntrustedCertificateIsAConnectionFailure() async throws {
        try await TLSUpstream.with { upstream in
            let trusting = CurlTransport(configuration: .init(caBundlePath: upstream.certificatePath))
            var ready = false
            for _ in 0..<100 where !ready {
                ready =
                    (try? await trusting.send(HTTPRequest(method: .get, url: upstream.url, timeout: .seconds(2))))
                    != nil
                if !ready { try await Task.sleep(for: .milliseconds(50)) }
            }
            try #require(ready, "nginx did not start")
            await trusting.shutdown()
            let transport = CurlTransport()
            let error = await #expect(throws: TransportError.self) {
                try await transport.send(HTTPRequest(method: .get, url: upstream.url, timeout: .seconds(5)))
            }
            #expect(error?.code == .connectionFailed)
            await transport.shutdown()
        }
    }
}
