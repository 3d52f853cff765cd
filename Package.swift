// swift-tools-version:6.1
import PackageDescription

// MARK: - Feature modules
// One line per feature module, sorted. `new-module` inserts a line here; each entry becomes
// `Modules/<Name>` (depending on ServiceCore only) and `Tests/<Name>Tests`.
let featureModules: [String] = [
    "FeedModule",
    "PaymentModule",
    "UserModule",
]

let package = Package(
    name: "Swifty",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ServiceCore", targets: ["ServiceCore"]),
        .library(name: "ServiceTesting", targets: ["ServiceTesting"]),
        .library(name: "URLSessionTransport", targets: ["URLSessionTransport"]),
        .library(name: "CurlTransport", targets: ["CurlTransport"]),
        .library(name: "HTTP1Transport", targets: ["HTTP1Transport"]),
        .library(name: "RequestSigning", targets: ["RequestSigning"]),
        .library(name: "HTTPServer", targets: ["HTTPServer"]),
        .executable(name: "swiftyd", targets: ["swiftyd"]),
        .executable(name: "sandbox-upstreams", targets: ["sandbox-upstreams"]),
        .executable(name: "swifty-sign", targets: ["swifty-sign"]),
        .executable(name: "new-module", targets: ["new-module"]),
        .executable(name: "swifty-bench", targets: ["swifty-bench"]),
    ],
    targets: []
)

// MARK: - Logging
package.targets += [
    .target(name: "AppLogging", path: "Modules/AppLogging"),
    .testTarget(name: "AppLoggingTests", dependencies: ["AppLogging"], path: "Tests/AppLoggingTests"),
]

// MARK: - HTTP types, event loops, JSON
package.targets += [
    .target(name: "HTTPTypes", path: "Modules/HTTPTypes"),
    .testTarget(name: "HTTPTypesTests", dependencies: ["HTTPTypes"], path: "Tests/HTTPTypesTests"),
    .systemLibrary(name: "CEpoll", path: "Modules/CEpoll"),
    .target(name: "EventLoops", dependencies: ["CEpoll"], path: "Modules/EventLoops"),
    .testTarget(name: "EventLoopsTests", dependencies: ["EventLoops"], path: "Tests/EventLoopsTests"),
    .target(name: "JSON", path: "Modules/JSON"),
    .testTarget(name: "JSONTests", dependencies: ["JSON", "ServiceTesting"], path: "Tests/JSONTests"),
]

// MARK: - Lifecycle
package.targets += [
    .target(name: "AppLifecycle", dependencies: ["AppLogging"], path: "Modules/AppLifecycle"),
    .testTarget(
        name: "AppLifecycleTests", dependencies: ["AppLifecycle", "AppLogging"], path: "Tests/AppLifecycleTests"),
]

// MARK: - Core
package.targets += [
    .target(name: "ServiceCore", dependencies: ["AppLogging", "HTTPTypes", "JSON"], path: "Modules/ServiceCore"),
    .testTarget(
        name: "ServiceCoreTests",
        dependencies: ["ServiceCore", "HTTPTypes", "JSON", "ServiceTesting", "AppLogging", "EventLoops"],
        path: "Tests/ServiceCoreTests"
    ),
]

// MARK: - Transports
package.targets += [
    .target(
        name: "URLSessionTransport", dependencies: ["ServiceCore", "HTTPTypes", "CCurl"],
        path: "Modules/URLSessionTransport",
        // FoundationNetworking runs on libcurl, which CCurl loads on first use (see CCurl.h):
        // importing it must not link libcurl into the executable.
        swiftSettings: [.unsafeFlags(["-Xfrontend", "-disable-autolink-library", "-Xfrontend", "curl"])]),
    .testTarget(
        name: "URLSessionTransportTests",
        dependencies: ["URLSessionTransport", "ServiceCore", "HTTPTypes", "ServiceTesting", "HTTPServer"],
        path: "Tests/URLSessionTransportTests"
    ),
    // libcurl's headers (libcurl4-openssl-dev); the library itself is loaded on first use.
    .target(name: "CCurl", path: "Modules/CCurl"),
    .target(
        name: "CurlTransport", dependencies: ["ServiceCore", "HTTPTypes", "EventLoops", "CCurl"],
        path: "Modules/CurlTransport"),
    .testTarget(
        name: "CurlTransportTests",
        dependencies: [
            "CurlTransport", "ServiceCore", "HTTPTypes", "EventLoops", "ServiceTesting", "HTTPServer",
            "URLSessionTransport", "CCurl",
        ],
        path: "Tests/CurlTransportTests"
    ),
    .systemLibrary(
        name: "CHTTPParser",
        path: "Modules/CHTTPParser",
        providers: [.apt(["libhttp-parser-dev"])]
    ),
    .target(name: "HTTP1Parsing", dependencies: ["CHTTPParser", "HTTPTypes"], path: "Modules/HTTP1Parsing"),
    .target(
        name: "HTTP1Transport",
        dependencies: [
            "ServiceCore", "HTTPTypes", "EventLoops", "AppLogging", "CHTTPParser", "HTTP1Parsing", "CEpoll",
        ],
        path: "Modules/HTTP1Transport"
    ),
    .testTarget(
        name: "HTTP1TransportTests",
        dependencies: [
            "HTTP1Transport", "CurlTransport", "ServiceCore", "HTTPTypes", "EventLoops", "ServiceTesting", "HTTPServer",
            "AppLogging",
        ],
        path: "Tests/HTTP1TransportTests"
    ),
]

// MARK: - HTTP server
package.targets += [
    .target(
        name: "HTTPServer",
        dependencies: ["CHTTPParser", "HTTP1Parsing", "AppLogging", "HTTPTypes", "EventLoops", "JSON"],
        path: "Modules/HTTPServer"
    ),
    // The raw-socket framing corpus, run against the bare server, swiftyd and a sandbox upstream.
    .target(name: "HTTPFramingCorpus", path: "Tests/HTTPFramingCorpus"),
    .testTarget(
        name: "HTTPServerTests",
        dependencies: ["HTTPServer", "HTTPTypes", "EventLoops", "HTTPFramingCorpus", "ServiceTesting", "AppLogging"],
        path: "Tests/HTTPServerTests"),
]

// MARK: - Redis
package.targets += [
    // No pkgConfig: hiredis.pc's cflags carry -D_FILE_OFFSET_BITS=64, which SwiftPM refuses with a
    // warning; the shim includes <hiredis/hiredis.h> from the default path instead.
    .systemLibrary(name: "CHiredis", path: "Modules/CHiredis", providers: [.apt(["libhiredis-dev"])]),
    .target(
        name: "RedisClient", dependencies: ["CHiredis", "CEpoll", "COpenSSL", "EventLoops"], path: "Modules/RedisClient"
    ),
    // A real redis-server per test suite, for every suite that needs one.
    .target(
        name: "RedisTestSupport", dependencies: ["RedisClient", "EventLoops", "ServiceTesting"],
        path: "Tests/RedisTestSupport"),
    // The fleet of Tools/cluster/run (nginx, two swiftyd, two sandbox sets, one Redis), tested
    // end to end.
    .testTarget(
        name: "ClusterTests",
        dependencies: [
            "RedisTestSupport", "ServiceTesting", "ServiceCore", "HTTPTypes", "URLSessionTransport", "RequestSigning",
            "SandboxUpstreams", "HTTPFramingCorpus",
        ],
        path: "Tests/ClusterTests"
    ),
    .testTarget(
        name: "RedisClientTests",
        dependencies: ["RedisClient", "EventLoops", "ServiceTesting", "RedisTestSupport"],
        path: "Tests/RedisClientTests"
    ),
    // Shared state in Redis behind the protocols that have an in-memory default (replay guard).
    .target(name: "RedisStores", dependencies: ["RequestSigning", "RedisClient"], path: "Modules/RedisStores"),
    .testTarget(
        name: "RedisStoresTests",
        dependencies: ["RedisStores", "RedisTestSupport", "RequestSigning", "EventLoops", "ServiceTesting"],
        path: "Tests/RedisStoresTests"
    ),
]

// MARK: - Test kit
package.targets += [
    // A C shim for what Swift cannot import from glibc's spawn.h and sys/wait.h (see its header).
    .target(name: "CSpawn", path: "Modules/CSpawn"),
    .testTarget(name: "CSpawnTests", dependencies: ["CSpawn"], path: "Tests/CSpawnTests"),
    .target(
        name: "ServiceTesting", dependencies: ["ServiceCore", "HTTPTypes", "EventLoops", "HTTPServer", "CSpawn"],
        path: "Modules/ServiceTesting"),
    .testTarget(
        name: "ServiceTestingTests",
        dependencies: [
            "ServiceTesting", "ServiceCore", "HTTPTypes", "HTTPServer", "CurlTransport", "URLSessionTransport",
        ],
        path: "Tests/ServiceTestingTests",
        resources: [.copy("Fixtures")]
    ),
]

// MARK: - Signing
package.targets += [
    .systemLibrary(
        name: "COpenSSL",
        path: "Modules/COpenSSL",
        pkgConfig: "libcrypto",
        providers: [.apt(["libssl-dev"])]
    ),
    .target(
        name: "RequestSigning", dependencies: ["ServiceCore", "HTTPTypes", "COpenSSL"], path: "Modules/RequestSigning"),
    // mimalloc: linked into the daemon's executable only, where it replaces the C allocator.
    .systemLibrary(name: "CMimalloc", path: "Modules/CMimalloc", providers: [.apt(["libmimalloc-dev"])]),
    .testTarget(
        name: "RequestSigningTests",
        dependencies: ["RequestSigning", "ServiceCore", "HTTPTypes", "ServiceTesting", "AppLogging"],
        path: "Tests/RequestSigningTests",
        resources: [.copy("Vectors")]
    ),
]

// MARK: - Feature modules (expanded from `featureModules`)
for name in featureModules {
    package.targets += [
        .target(name: name, dependencies: ["ServiceCore"], path: "Modules/\(name)"),
        .testTarget(
            name: "\(name)Tests",
            dependencies: [.target(name: name), "ServiceCore", "ServiceTesting"],
            path: "Tests/\(name)Tests"
        ),
    ]
}

// MARK: - Apps
package.targets += [
    .target(
        name: "SandboxUpstreams",
        dependencies: [
            "HTTPServer", "RequestSigning", "AppLogging", "ServiceCore", "HTTPTypes", "JSON", "UserModule",
            "FeedModule", "PaymentModule", "AppLifecycle", "EventLoops", "RedisClient", "RedisStores",
        ],
        path: "Apps/SandboxUpstreams"
    ),
    .testTarget(
        name: "SandboxUpstreamsTests",
        dependencies: [
            "SandboxUpstreams", "sandbox-upstreams", "AppLogging", "RequestSigning", "ServiceCore", "HTTPTypes",
            "ServiceTesting",
            "URLSessionTransport", "CurlTransport", "HTTPServer", "UserModule", "FeedModule", "PaymentModule",
            "EventLoops", "HTTPFramingCorpus", "RedisClient", "RedisTestSupport",
        ],
        path: "Tests/SandboxUpstreamsTests"
    ),
    .executableTarget(
        name: "sandbox-upstreams",
        dependencies: ["SandboxUpstreams"],
        path: "Apps/sandbox-upstreams"
    ),
    .target(
        name: "SwiftyDaemon",
        dependencies: [
            "AppLogging", "ServiceCore", "HTTPTypes", "EventLoops", "JSON", "HTTPServer", "RequestSigning",
            "CurlTransport", "HTTP1Transport", "URLSessionTransport", "SandboxUpstreams", "AppLifecycle",
            "RedisClient",
        ] + featureModules.map { .target(name: $0) },
        path: "Apps/SwiftyDaemon",
        // The app API's OpenAPI document, compiled in so that the admin server serves it from any install.
        resources: [.embedInCode("Resources/openapi.json")]
    ),
    .executableTarget(name: "swiftyd", dependencies: ["SwiftyDaemon", "CMimalloc"], path: "Apps/swiftyd"),
    .testTarget(
        name: "SwiftyDaemonTests",
        dependencies: [
            "SwiftyDaemon", "swiftyd", "SandboxUpstreams", "ServiceTesting", "HTTPServer", "RequestSigning",
            "URLSessionTransport", "ServiceCore", "HTTPTypes", "CurlTransport", "AppLogging", "AppLifecycle",
            "EventLoops", "HTTPFramingCorpus", "RedisClient", "RedisTestSupport", "JSON",
        ],
        path: "Tests/SwiftyDaemonTests"
    ),
]

// MARK: - Tools
package.targets += [
    .target(name: "ModuleScaffolding", path: "Tools/new-module/ModuleScaffolding"),
    .executableTarget(name: "new-module", dependencies: ["ModuleScaffolding"], path: "Tools/new-module/CLI"),
    .testTarget(
        name: "ModuleScaffoldingTests",
        dependencies: ["ModuleScaffolding", "new-module", "ServiceTesting"],
        path: "Tests/ModuleScaffoldingTests"
    ),
    .target(
        name: "SigningTool", dependencies: ["RequestSigning", "ServiceCore", "HTTPTypes"],
        path: "Tools/swifty-sign/SigningTool"),
    .executableTarget(name: "swifty-sign", dependencies: ["SigningTool"], path: "Tools/swifty-sign/CLI"),
    .testTarget(
        name: "SigningToolTests",
        dependencies: ["SigningTool", "RequestSigning", "ServiceCore", "swifty-sign", "ServiceTesting"],
        path: "Tests/SigningToolTests"
    ),
    .executableTarget(
        name: "swifty-bench",
        dependencies: [
            "ServiceCore", "HTTPTypes", "HTTPServer", "RequestSigning", "CurlTransport", "URLSessionTransport",
            "AppLogging", "AppLifecycle", "COpenSSL", "EventLoops", "RedisClient", "RedisStores",
        ],
        path: "Tools/bench/swifty-bench"
    ),
]

// MARK: - Strict settings for every Swift target
// A feature module (and its tests) imports ServiceCore alone and names the HTTP and JSON types
// through ServiceCore's typealiases; member import visibility would make every such file import
// the targets that define them as well, so it stays off there.
let importsServiceCoreAlone = Set(featureModules + featureModules.map { "\($0)Tests" })
for target in package.targets where target.type != .system {
    var settings: [SwiftSetting] = [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("InternalImportsByDefault"),
    ]
    if !importsServiceCoreAlone.contains(target.name) {
        settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    }
    // Release builds leave out the runtime checks of exclusive access (to class properties,
    // globals and captured variables): their bookkeeping was 4-8 % of the instructions of a request
    // through swiftyd. Debug builds, which the test suite runs, keep them, so a conflicting access
    // still stops a test.
    if target.type != .test {
        settings.append(.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release)))
    }
    target.swiftSettings = (target.swiftSettings ?? []) + settings
}

// MARK: - Release links
// Release builds link the Swift runtime and Foundation statically (`--static-swift-stdlib`, see
// docs/deployment.md). The toolchain's lld links them; gold warns about the `mktemp` that static
// Foundation references, on every release link. Packed relative relocations (DT_RELR, glibc
// 2.36) shrink the 2 MB relocation table the loader reads at every start to about 40 KB.
for target in package.targets where target.type == .executable {
    target.linkerSettings =
        (target.linkerSettings ?? []) + [
            .unsafeFlags(
                ["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"], .when(configuration: .release))
        ]
}
