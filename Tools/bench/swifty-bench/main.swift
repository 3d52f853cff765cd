// swifty-bench: the project's micro and load benchmarks. Run from a release build:
//   swift run -c release --static-swift-stdlib swifty-bench <benchmark> [options]
// Each benchmark lives in its own file; this switch only dispatches.

import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "core":
    CoreBenchmark.run(arguments: Array(arguments.dropFirst()))
case "server":
    exit(await ServerBenchmark.run(Array(arguments.dropFirst())))
case "transport":
    exit(await TransportBenchmark.run(Array(arguments.dropFirst())))
case "signing":
    await SigningBenchmark.run(arguments: Array(arguments.dropFirst()))
case "signing-count":
    await SigningCountBenchmark.run(arguments: Array(arguments.dropFirst()))
case "replay-redis":
    exit(await ReplayRedisBenchmark.run(Array(arguments.dropFirst())))
default:
    print(
        """
        usage: swifty-bench <benchmark> [options]
          core        building requests from service cases (ServiceCore)
          server      HTTP server answering small JSON after an async hop (for wrk)
          transport   the libcurl and URLSession transports against a loopback upstream
          signing     signing and verifying requests against raw OpenSSL HMAC (RequestSigning)
          signing-count  the floor, signing or verifying N times alone, for instruction counts
          replay-redis  verifying with the Redis replay guard against the in-memory one (RedisStores)
        """
    )
    exit(arguments.first == nil || arguments.first == "--help" ? 0 : 64)
}
