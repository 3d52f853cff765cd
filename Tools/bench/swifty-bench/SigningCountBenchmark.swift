import Foundation
import HTTPTypes
import RequestSigning

/// Runs one signing operation N times with nothing else in the loop, for instruction counts:
/// run it under the counter for two N and divide the difference by the difference of N.
///
///   swifty-bench signing-count floor|key|sign|verify GET|POST N
///
/// `floor` is the signing benchmark's floor: raw HMAC-SHA-256 of the request's signature base
/// through one reused keyed context (and SHA-256 of a POST's body). `key` is the signing key's
/// own HMAC of that base, so that `sign` and `verify` less `key` is the work around the MAC.
/// `verify` signs 4 096 requests first (the same number for every N) and verifies them in turn,
/// with a fresh verifier for each pass over them, so that no nonce is seen twice.
enum SigningCountBenchmark {
    static func run(arguments: [String]) async {
        guard arguments.count == 3, ["floor", "key", "sign", "verify"].contains(arguments[0]),
            ["GET", "POST"].contains(arguments[1].uppercased()), let count = Int(arguments[2]), count >= 0
        else {
            FileHandle.standardError.write(
                Data("usage: swifty-bench signing-count floor|key|sign|verify GET|POST N\n".utf8))
            exit(64)
        }
        let secret = (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ 7) }
        let key = try! SigningKey(id: "user-2026-11", tag: "UserModule", secret: secret)
        let cases = SigningBenchmark.cases(key: key)
        let benchmark = arguments[1].uppercased() == "GET" ? cases[0] : cases[1]
        var sink = 0
        if arguments[0] == "floor" {
            let baseline = try! OpenSSLBaseline(secret: secret)
            let base = SigningBenchmark.sampleBase(benchmark)
            let body = benchmark.request.body.map { Array($0) }
            withUnsafeTemporaryAllocation(byteCount: 64, alignment: 8) { output in
                for _ in 0..<count {
                    base.withUnsafeBytes { sink &+= baseline.mac($0, into: output) }
                    if let body { body.withUnsafeBytes { sink &+= baseline.digest($0, into: output) } }
                }
            }
        } else if arguments[0] == "key" {
            let base = SigningBenchmark.sampleBase(benchmark)
            withUnsafeTemporaryAllocation(byteCount: 64, alignment: 8) { output in
                for _ in 0..<count {
                    base.withUnsafeBytes { sink &+= try! key.secret.authenticate($0, into: output) }
                }
            }
        } else if arguments[0] == "sign" {
            for _ in 0..<count { sink &+= try! benchmark.signer.sign(benchmark.request).headers.count }
        } else {
            let now = Date()
            let signer = try! RequestSigner(key: key, configuration: benchmark.signer.configuration, clock: { now })
            // Each message is moved out of `batch` and into `verified`, not copied (see
            // `SigningBenchmark.measure`); when `batch` is empty the two trade places.
            var batch = (0..<4_096).map { _ in SigningBenchmark.received(try! signer.sign(benchmark.request)) }
            var verified: [SignableMessage] = []
            verified.reserveCapacity(batch.count)
            var verifier = SigningBenchmark.verifier(key: key, clock: { now })
            for _ in 0..<count {
                if batch.isEmpty {
                    swap(&batch, &verified)
                    verifier = SigningBenchmark.verifier(key: key, clock: { now })
                }
                let message = batch.popLast()!
                sink &+= try! await verifier.verify(message).keyID.utf8.count
                verified.append(message)
            }
        }
        print(sink)
    }
}
