import Foundation
import HTTPTypes
import RequestSigning
import ServiceCore

/// Measures signing and verifying typical requests against the floor of raw OpenSSL calls over
/// the same bytes: HMAC-SHA-256 of the signature base through one reused keyed `EVP_MAC` context,
/// plus SHA-256 of the body when there is one. Signing must cost at most 2x the floor, verifying
/// at most 2.5x.
enum SigningBenchmark {
    /// A virtual clock's reading in milliseconds, shared with the signer's and verifier's clock
    /// closures.
    ///
    /// `@unchecked Sendable`: the benchmark touches it from one thread only.
    final class TickCounter: @unchecked Sendable {
        var value = 0
    }

    struct Case {
        var name: String
        var request: HTTPRequest
        var signer: RequestSigner
    }

    static func run(arguments: [String]) async {
        // Positional: ITERATIONS ROUNDS [GET|POST]; anything else is a usage error, not a crash.
        let valid =
            arguments.count <= 3 && arguments.prefix(2).allSatisfy { Int($0) != nil }
            && arguments.dropFirst(2).allSatisfy { ["GET", "POST"].contains($0.uppercased()) }
        guard valid else {
            FileHandle.standardError.write(Data("usage: swifty-bench signing [ITERATIONS [ROUNDS [GET|POST]]]\n".utf8))
            exit(64)
        }
        let iterations = max(1_000, Int(arguments.first ?? "") ?? 100_000)
        let rounds = max(3, Int(arguments.dropFirst().first ?? "") ?? 9)
        let secret = (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ 7) }
        let key = try! SigningKey(id: "user-2026-11", tag: "UserModule", secret: secret)
        let baseline = try! OpenSSLBaseline(secret: secret)

        // An optional third argument, `GET` or `POST`, runs that request alone (for profiling).
        let only = arguments.dropFirst(2).first?.uppercased()
        let cases = Self.cases(key: key).filter { only == nil || $0.request.method.rawValue == only }

        print(
            "signing benchmark: \(rounds) rounds of \(iterations) operations per measurement, interleaved in slices"
                + " of 500; thread CPU time (CLOCK_THREAD_CPUTIME_ID), median ns/op")
        for benchmark in cases {
            await measure(benchmark, key: key, baseline: baseline, iterations: iterations, rounds: rounds)
        }
        compareContexts(
            key: key, baseline: baseline, base: sampleBase(cases[0]), iterations: iterations, rounds: rounds)
    }

    /// The typical requests: a GET with a query and a covered header field, and a POST with a
    /// 256-byte JSON body.
    static func cases(key: SigningKey) -> [Case] {
        let get = HTTPRequest(
            method: .get,
            url: URL(
                string: "https://api.example.com/v1/users/42/feed?limit=20&cursor=eyJpZCI6MTIzNH0&fields=id%2Cname")!,
            headers: ["Accept": "application/json", "User-Agent": "swiftyd/1.0", "X-Request-ID": "7f0c2a9e-41d4"])
        let json =
            "{\"payer\":\"alice\",\"payee\":\"bob\",\"amountMinor\":12345,\"currency\":\"EUR\",\"reference\":\"inv-2026-11-30-000042\",\"memo\":\""
        let memo = String(repeating: "x", count: 256 - json.utf8.count - 2)
        let body = Data((json + memo + "\"}").utf8)
        precondition(body.count == 256)
        let post = HTTPRequest(
            method: .post, url: URL(string: "https://api.example.com/v1/users/42/payments?dry_run=false")!,
            headers: ["Content-Type": "application/json", "Idempotency-Key": "9f1c2b7e-2f1d-4c55-9a7e-0b6f3f1e2d4c"],
            body: body)
        let getSigner = try! RequestSigner(
            key: key,
            configuration: RequestSigner.Configuration(components: [
                .method, .authority, .path, .query, try! .field("accept"),
            ]))
        let postSigner = try! RequestSigner(key: key)
        return [
            Case(name: "GET with query", request: get, signer: getSigner),
            Case(name: "POST, 256-byte JSON body", request: post, signer: postSigner),
        ]
    }

    /// The verifier of the measurements: maximum age 2 s, so that at 1 ms per request its replay
    /// guard holds about 3 000 nonces.
    static func verifier(key: SigningKey, clock: @escaping @Sendable () -> Date) -> SignatureVerifier {
        SignatureVerifier(
            keyRing: try! KeyRing([key]),
            configuration: SignatureVerifier.Configuration(
                requiredComponents: [.method, .authority, .path, .query], maximumAge: .seconds(2)),
            replayGuard: InMemoryReplayGuard(capacity: 100_000), clock: clock)
    }

    /// A base as the signer builds it (random nonce, so the same length as in real use).
    static func sampleBase(_ benchmark: Case) -> [UInt8] {
        var message = try! SignableMessage(benchmark.request)
        return try! benchmark.signer.signatureBase(for: &message).bytes
    }

    /// What a server builds from the received request: the raw target and a `Host` field.
    static func received(_ request: HTTPRequest) -> SignableMessage {
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)!
        var target = components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        var headers = HTTPHeaders([("Host", components.host!)])
        headers.append(contentsOf: request.headers)
        return try! SignableMessage(
            method: request.method.rawValue, requestTarget: target, headers: headers, body: request.body)
    }

    static func measure(_ benchmark: Case, key: SigningKey, baseline: OpenSSLBaseline, iterations: Int, rounds: Int)
        async
    {
        let base = sampleBase(benchmark)
        let body = benchmark.request.body.map { Array($0) }
        var prepared = try! SignableMessage(benchmark.request)
        let components = try! SignatureInput.parse(
            fieldValue: benchmark.signer.sign(benchmark.request).headers["Signature-Input"]!)[0].components.count
        print("\n\(benchmark.name): \(benchmark.request.method) \(benchmark.request.url.absoluteString)")
        print("  \(components) covered components, base \(base.count) bytes, body \(body?.count ?? 0) bytes")

        // Verification in a steady state: a virtual clock advances 1 ms per request, signatures are
        // made at the moment they are verified, and the verifier's maximum age is 2 s, so its
        // replay guard holds about 3 000 nonces and drops one for each it records, as a server's
        // does. Each slice's requests are signed just before it, outside the timed loop, so that
        // they are in the cache as a request a server has just read is. The timed loop moves each
        // message out of the batch and into `verifiedBatch`: a copy (a retain of each of its
        // strings and arrays, then a release) or its destruction is not the verifier's work.
        let ticks = TickCounter()
        let epoch = Date().timeIntervalSince1970.rounded(.down)
        let virtualNow: @Sendable () -> Date = { Date(timeIntervalSince1970: epoch + Double(ticks.value) / 1_000) }
        let batchSigner = try! RequestSigner(key: key, configuration: benchmark.signer.configuration, clock: virtualNow)
        let verifier = verifier(key: key, clock: virtualNow)
        let slice = 500
        // In reverse order, so that taking from the end gives the earliest signature first.
        var signedBatch: [SignableMessage] = []
        var verifiedBatch: [SignableMessage] = []
        verifiedBatch.reserveCapacity(slice)
        func signBatch() {
            let start = ticks.value
            signedBatch = (0..<slice).reversed().map { offset in
                ticks.value = start + offset
                return received(try! batchSigner.sign(benchmark.request))
            }
            ticks.value = start
            verifiedBatch.removeAll(keepingCapacity: true)
        }

        // Each round interleaves the measurements in slices of 500 operations, so that load from
        // other processes falls on all of them alike.
        let slices = max(1, iterations / slice)
        var floor: [Double] = []
        var sign: [Double] = []
        var signPrepared: [Double] = []
        var verify: [Double] = []
        var sink = 0
        for _ in 0..<rounds {
            var totals = [Double](repeating: 0, count: 4)
            let clock = ThreadCPUClock()
            for _ in 0..<slices {
                totals[0] += clock.measure {
                    for _ in 0..<slice {
                        withUnsafeTemporaryAllocation(byteCount: 64, alignment: 8) { output in
                            base.withUnsafeBytes { sink &+= baseline.mac($0, into: output) }
                            if let body { body.withUnsafeBytes { sink &+= baseline.digest($0, into: output) } }
                        }
                    }
                }
                totals[1] += clock.measure {
                    for _ in 0..<slice { sink &+= try! benchmark.signer.sign(benchmark.request).headers.count }
                }
                totals[2] += clock.measure {
                    for _ in 0..<slice {
                        var message = prepared
                        try! benchmark.signer.sign(&message)
                        sink &+= message.headers.count
                    }
                }
                signBatch()
                let start = clock.now()
                while let message = signedBatch.popLast() {
                    sink &+= try! await verifier.verify(message).keyID.utf8.count
                    verifiedBatch.append(message)
                    ticks.value += 1
                }
                totals[3] += clock.now() - start
            }
            let count = Double(slices * slice)
            floor.append(totals[0] / count)
            sign.append(totals[1] / count)
            signPrepared.append(totals[2] / count)
            verify.append(totals[3] / count)
        }
        prepared.headers = HTTPHeaders()
        precondition(sink != 0)
        let floorMedian = median(floor)
        let signMedian = median(sign)
        let verifyMedian = median(verify)
        print(
            String(
                format: "  floor (raw EVP_MAC HMAC-SHA-256 of the base%@): %7.0f ns/op",
                body == nil ? "" : " + EVP_Digest SHA-256 of the body", floorMedian))
        print(
            String(
                format: "  sign (HTTPRequest in, signed HTTPRequest out):    %7.0f ns/op  = %.2fx floor (limit 2x: %@)",
                signMedian, signMedian / floorMedian, signMedian <= 2 * floorMedian ? "met" : "MISSED"))
        print(
            String(
                format: "  sign (prepared SignableMessage, no URL parsing):  %7.0f ns/op  = %.2fx floor",
                median(signPrepared), median(signPrepared) / floorMedian))
        print(
            String(
                format: "  verify (incl. replay guard):                      %7.0f ns/op  = %.2fx floor"
                    + " (limit 2.5x: %@)",
                verifyMedian, verifyMedian / floorMedian, verifyMedian <= 2.5 * floorMedian ? "met" : "MISSED"))
        print("  (verify: steady state, replay guard holding ~3 000 nonces, one dropped per one recorded)")
        print(
            String(
                format: "  spread over rounds: floor %.0f-%.0f, sign %.0f-%.0f, verify %.0f-%.0f ns/op",
                floor.min()!, floor.max()!, sign.min()!, sign.max()!, verify.min()!, verify.max()!))
    }

    /// HMAC of the same base: the floor's reused EVP_MAC context, a duplicate per use, raw
    /// SHA-256 calls from the pad states, and the signing key.
    static func compareContexts(key: SigningKey, baseline: OpenSSLBaseline, base: [UInt8], iterations: Int, rounds: Int)
    {
        var raw: [Double] = []
        var pooled: [Double] = []
        var duplicated: [Double] = []
        var states: [Double] = []
        var sink = 0
        for _ in 0..<rounds {
            base.withUnsafeBytes { bytes in
                withUnsafeTemporaryAllocation(byteCount: 64, alignment: 8) { output in
                    raw.append(time(iterations) { sink &+= baseline.mac(bytes, into: output) })
                    pooled.append(time(iterations) { sink &+= try! key.secret.authenticate(bytes, into: output) })
                    duplicated.append(
                        time(iterations) {
                            sink &+= baseline.macUsingDuplicate(bytes, into: output)
                        })
                    states.append(time(iterations) { sink &+= baseline.macFromStates(bytes, into: output) })
                }
            }
        }
        precondition(sink != 0)
        print("\nHMAC-SHA-256 of a \(base.count)-byte base:")
        print(String(format: "  raw reused EVP_MAC context (the floor):  %7.0f ns/op", median(raw)))
        print(String(format: "  EVP_MAC_CTX_dup per use, then free:      %7.0f ns/op", median(duplicated)))
        print(String(format: "  raw SHA256_* from the two pad states:    %7.0f ns/op", median(states)))
        print(String(format: "  the signing key (SigningKey.secret):     %7.0f ns/op", median(pooled)))
    }

    static func time(_ iterations: Int, _ body: () -> Void) -> Double {
        let clock = ThreadCPUClock()
        return clock.measure {
            for _ in 0..<iterations { body() }
        } / Double(iterations)
    }

    static func nanoseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
}
