// swift-tools-version:6.1
import Foundation
import PackageDescription

/// FleetAuth: Fleet Engine–style authorization tokens, from the server that signs them,
/// through the apps that fetch and reuse them, to the service that checks them.
///
/// Dependency direction (kept one way on purpose):
///   apps → FleetTokenProvider (Foundation only)
///   FleetEngineClient → FleetTokenProvider
///   TokenServer, LocalFleetEngine → FleetTokens
///   fleetauth → everything
///
/// Everything that needs another package sits behind a trait:
/// - `Tokens`: FleetTokens and swift-crypto, for a backend that mints or verifies tokens
///   (`traits: ["Tokens"]` resolves swift-crypto and swift-asn1 only);
/// - `Server` (the default): the token server, the local Fleet Engine and the fleetauth tool,
///   and FleetTokens with them.
/// An app that only wants FleetTokenProvider or FleetEngineClient adds the package with
/// `traits: []` and resolves no other package at all (see README, "Tokens in the app").
///
/// FleetTokens' dependencies are there under either trait, rather than `Server` enabling
/// `Tokens`: with two traits on, SwiftPM passes their `-D` flags in an order that changes from
/// one invocation to the next, and every `swift build` after a `swift test` recompiled every
/// module of the package (and SwiftProtobuf). One trait on, one flag, nothing rebuilt.

/// A dependency of the server side, there only while the `Server` trait is on.
func server(_ product: String, _ package: String) -> Target.Dependency {
    .product(name: product, package: package, condition: .when(traits: ["Server"]))
}

/// A dependency of FleetTokens, there while the `Tokens` trait or the `Server` trait is on.
func tokens(_ product: String, _ package: String) -> Target.Dependency {
    .product(name: product, package: package, condition: .when(traits: tokenTraits))
}

/// The traits that bring FleetTokens' dependencies.
let tokenTraits: Set<String> = ["Tokens", "Server"]

/// What `fleetauth --version` prints: the VERSION file, and the commit `scripts/release.sh`
/// gives in `FLEETAUTH_BUILD_COMMIT` (a development build says none). Defined for the one C
/// target that holds them, so a new commit recompiles one file.
let buildInfo: [CSetting] = {
    let versionFile = Context.packageDirectory + "/VERSION"
    let version = ((try? String(contentsOfFile: versionFile, encoding: .utf8)) ?? "unknown")
        .trimmingCharacters(in: .whitespacesAndNewlines)
    let commit = (Context.environment["FLEETAUTH_BUILD_COMMIT"] ?? "").filter { $0.isHexDigit }
    return [.define("FLEETAUTH_VERSION", to: "\"\(version.filter { $0.isLetter || $0.isNumber || ".-+".contains($0) })\""),
            .define("FLEETAUTH_BUILD_COMMIT", to: "\"\(commit)\"")]
}()

let package = Package(
    name: "fleetauth",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "FleetTokens", targets: ["FleetTokens"]),
        .library(name: "FleetTokenProvider", targets: ["FleetTokenProvider"]),
        .library(name: "FleetEngineClient", targets: ["FleetEngineClient"]),
        .library(name: "FleetEngineEmulator", targets: ["FleetEngineEmulator"]),
        .executable(name: "fleetauth", targets: ["fleetauth"]),
    ],
    traits: [
        .trait(name: "Tokens", description: "FleetTokens: minting and verifying Fleet Engine tokens, on swift-crypto"),
        .trait(
            name: "Server",
            description: "The token server, the local Fleet Engine and the fleetauth tool, with the packages they need (FleetTokens' among them)"
        ),
        .default(enabledTraits: ["Server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        // No default traits, here and for swift-protobuf: two traits on pass their `-D` flags in
        // an order that changes from one SwiftPM invocation to the next, which recompiled
        // Hummingbird and SwiftProtobuf after every `swift test` (and FleetAuth uses neither
        // Hummingbird's swift-configuration support nor swift-protobuf's Foundation streams).
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: []),
        // Server plumbing shared by the token server and the local Fleet Engine.
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // The local Fleet Engine fetches the token server's JWKS and the token server the keys of
        // OpenID Connect issuers (both through FleetAuthServerHTTP); the demo's apps share one client.
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        // `fleetauth-bench fleet-engine` drives HTTP load with a lean NIO client.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
        // The HTTP parts Hummingbird's channel carries, for the handler that answers parse errors.
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        // The local Fleet Engine's gRPC door: Google's Fleet Engine v1 messages and services.
        .package(url: "https://github.com/apple/swift-protobuf.git", from: "1.39.0", traits: []),
        .package(url: "https://github.com/grpc/grpc-swift-2.git", from: "2.4.3"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport.git", from: "2.9.2"),
        .package(url: "https://github.com/grpc/grpc-swift-protobuf.git", from: "2.4.1"),
        // The HTTP/2 layer under grpc-swift's transport, for `fleetauth-bench grpc-floors`.
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        // The TLS context of the PostgreSQL probe's single connection (PostgresNIO's own TLS).
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
    ],
    targets: [
        .target(
            name: "FleetTokens",
            dependencies: [
                // HTTPTransport and RetryPolicy, for the keyless (IAM) signer's calls to Google.
                "FleetAuthHTTP",
                "FleetAuthCodecs",
                "FleetAuthLocking",
                tokens("Crypto", "swift-crypto"),
                tokens("CryptoExtras", "swift-crypto"),
            ]
        ),
        // A value behind a lock: the one way the libraries and the servers share state between
        // threads in synchronous code. Foundation only.
        .target(name: "FleetAuthLocking"),
        // The hand-written codecs, each where it beats the library it replaces (`fleetauth-bench
        // codecs`): base64url, a strict forward-only JSON reader (tokens' headers and claims, the
        // shape of the servers' strict bodies) and a JSON string-literal writer. Foundation only.
        .target(name: "FleetAuthCodecs", dependencies: ["FleetAuthLocking"]),
        // The HTTP seam the app-side clients and the keyless signer share: HTTPTransport, its
        // URLSession implementation, RetryPolicy. Foundation only; re-exported by both.
        .target(name: "FleetAuthHTTP", dependencies: ["FleetAuthLocking"]),
        .target(name: "FleetTokenProvider", dependencies: ["FleetAuthHTTP", "FleetAuthCodecs", "FleetAuthLocking"]),
        .target(name: "FleetEngineClient", dependencies: ["FleetTokenProvider"]),
        // What both servers store with: SQLite and PostgreSQL behind one SQLKit database, with
        // the connection rules each needs, and the lock that gives a data directory one owner.
        .target(
            name: "FleetAuthServerStorage",
            dependencies: [
                "FleetAuthLocking",
                server("SQLKit", "sql-kit"),
                server("SQLiteKit", "sqlite-kit"),
                server("PostgresKit", "postgres-kit"),
                server("PostgresNIO", "postgres-nio"),
                server("Logging", "swift-log"),
                server("NIOCore", "swift-nio"),
                server("NIOPosix", "swift-nio"),
                server("NIOSSL", "swift-nio-ssl"),
            ]
        ),
        // What both servers answer and fetch with: Google-shaped JSON errors (405, 431 and
        // Hummingbird's own included), strict JSON bodies, bearer credentials, metrics, fetched
        // documents on a refetch schedule, and services run in-process.
        .target(
            name: "FleetAuthServerHTTP",
            dependencies: [
                "FleetAuthServerStorage",
                server("Hummingbird", "hummingbird"),
                server("HummingbirdCore", "hummingbird"),
                server("Logging", "swift-log"),
                server("Metrics", "swift-metrics"),
                server("Prometheus", "swift-prometheus"),
                server("AsyncHTTPClient", "async-http-client"),
                server("NIOCore", "swift-nio"),
                server("NIOPosix", "swift-nio"),
                server("NIOHTTP1", "swift-nio"),
                server("NIOHTTPTypes", "swift-nio-extras"),
                server("NIOHTTPTypesHTTP1", "swift-nio-extras"),
                server("ServiceLifecycle", "swift-service-lifecycle"),
                server("UnixSignals", "swift-service-lifecycle"),
                // TLS from PEM files on every port (--tls-cert, --tls-key).
                server("NIOSSL", "swift-nio-ssl"),
                "FleetAuthCodecs",
                "FleetAuthLocking",
            ],
            // What both consoles' pages share (ConsolePage).
            resources: [
                .embedInCode("Resources/kit.js"),
                .embedInCode("Resources/kit.css"),
            ]
        ),
        // Swift generated from Protos/ by scripts/generate-protos.sh: Fleet Engine v1's messages,
        // its services' gRPC stubs and gRPC health checking.
        .target(
            name: "FleetEngineProtos",
            dependencies: [
                server("SwiftProtobuf", "swift-protobuf"),
                server("GRPCCore", "grpc-swift-2"),
                server("GRPCProtobuf", "grpc-swift-protobuf"),
            ]
        ),
        .target(
            name: "LocalFleetEngine",
            dependencies: [
                "FleetAuthLocking",
                "FleetAuthCodecs",
                "FleetTokens",
                "FleetAuthServerHTTP",
                "FleetAuthServerStorage",
                "FleetEngineProtos",
                server("SwiftProtobuf", "swift-protobuf"),
                server("GRPCCore", "grpc-swift-2"),
                server("GRPCProtobuf", "grpc-swift-protobuf"),
                // The gRPC door's transport (GRPC/Transport): HTTP/2 straight on swift-nio.
                server("NIOHTTP2", "swift-nio-http2"),
                server("NIOHPACK", "swift-nio-http2"),
                server("NIOExtras", "swift-nio-extras"),
                server("NIOPosix", "swift-nio"),
                server("Hummingbird", "hummingbird"),
                server("HummingbirdCore", "hummingbird"),
                server("SQLKit", "sql-kit"),
                server("Logging", "swift-log"),
                server("Metrics", "swift-metrics"),
                server("NIOCore", "swift-nio"),
                server("ServiceLifecycle", "swift-service-lifecycle"),
            ],
            resources: [
                .embedInCode("Resources/local-fleet-engine.openapi.yaml"),
                .embedInCode("Resources/local-fleet-engine-emulator.openapi.yaml"),
                .embedInCode("Resources/console.html"),
                .embedInCode("Resources/console.js"),
                .embedInCode("Resources/console.css"),
            ]
        ),
        // The gRPC door on grpc-swift's own transport, which the door's is measured and tested
        // beside: for the benchmarks and tests only, so that `fleetauth` ships without it.
        .target(
            name: "LocalFleetEngineGRPCSwift",
            dependencies: [
                "LocalFleetEngine",
                server("GRPCCore", "grpc-swift-2"),
                server("GRPCNIOTransportHTTP2", "grpc-swift-nio-transport"),
            ]
        ),
        // The local Fleet Engine in a test's process, with its harness: for apps' and backends' tests.
        .target(
            name: "FleetEngineEmulator",
            dependencies: [
                "FleetTokens",
                "LocalFleetEngine",
                "FleetAuthServerHTTP",
                "FleetAuthServerStorage",
                server("Logging", "swift-log"),
            ]
        ),
        // Google's side of keyless signing, offline: metadata server, IAM signJwt, public keys.
        .target(
            name: "GoogleStandIn",
            dependencies: [
                "FleetAuthCodecs",
                "FleetTokens",
                "FleetAuthServerHTTP",
                server("Crypto", "swift-crypto"),
                server("Hummingbird", "hummingbird"),
                server("Logging", "swift-log"),
                server("ServiceLifecycle", "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "TokenServer",
            dependencies: [
                "FleetTokens",
                "FleetAuthCodecs",
                "FleetAuthLocking",
                "FleetAuthServerHTTP",
                "FleetAuthServerStorage",
                server("Hummingbird", "hummingbird"),
                server("ServiceLifecycle", "swift-service-lifecycle"),
                server("HummingbirdBcrypt", "hummingbird-auth"),
                server("Crypto", "swift-crypto"),
                server("Logging", "swift-log"),
                server("Metrics", "swift-metrics"),
                server("NIOCore", "swift-nio"),
                server("NIOPosix", "swift-nio"),
            ],
            // The OpenAPI document, the browser module and example page (Browser/), the console.
            resources: [
                .embedInCode("Resources/token-server.openapi.yaml"),
                .embedInCode("Resources/console.html"),
                .embedInCode("Resources/console.js"),
                .embedInCode("Resources/console.css"),
                .embedInCode("Resources/fleetauth.js"),
                .embedInCode("Resources/rider.html"),
                .embedInCode("Resources/rider.js"),
                .embedInCode("Resources/rider.css"),
            ]
        ),
        // The token server, the local Fleet Engine and (keyless) the Google stand-in opened
        // together on one data directory, as `fleetauth serve` and `fleetauth demo` run them.
        .target(
            name: "LocalStack",
            dependencies: [
                "FleetTokens",
                "GoogleStandIn",
                "LocalFleetEngine",
                "FleetAuthServerHTTP",
                "FleetAuthServerStorage",
                "TokenServer",
                server("Logging", "swift-log"),
            ]
        ),
        // `fleetauth demo` as a library: the token server, the local Fleet Engine and (keyless)
        // the Google stand-in in one process, simulated driver and consumer apps, an intruder,
        // and the report.
        .target(
            name: "FleetDemo",
            dependencies: [
                "FleetAuthCodecs",
                "FleetAuthLocking",
                "GoogleStandIn",
                "FleetTokens",
                "FleetTokenProvider",
                "FleetEngineClient",
                "FleetAuthServerHTTP",
                "FleetAuthServerStorage",
                "LocalFleetEngine",
                "TokenServer",
                "LocalStack",
                server("Logging", "swift-log"),
                server("ServiceLifecycle", "swift-service-lifecycle"),
                server("AsyncHTTPClient", "async-http-client"),
                server("NIOCore", "swift-nio"),
                server("NIOPosix", "swift-nio"),
                server("NIOHTTP1", "swift-nio"),
            ]
        ),
        // What the command-line tools share: one-line failures, `--json` output, other programs
        // run as child processes, and HTTP/1.1 spoken byte for byte on loopback (by the
        // benchmarks, the browser driver and the tests).
        .target(name: "CommandSupport", dependencies: ["FleetAuthLocking"]),
        // Headless Chromium driven over WebDriver, for the browser tests and the browser
        // benchmark: pages and the browser module run by a real browser. Foundation only.
        .target(name: "BrowserDriver", dependencies: ["CommandSupport"]),
        // The version and commit `fleetauth --version` prints.
        .target(name: "FleetAuthBuildInfo", cSettings: buildInfo),
        .executableTarget(
            name: "fleetauth",
            dependencies: [
                "CommandSupport",
                "FleetAuthBuildInfo",
                "FleetDemo",
                "GoogleStandIn",
                "LocalStack",
                "FleetTokens",
                "FleetAuthServerHTTP",
                "FleetAuthServerStorage",
                "LocalFleetEngine",
                "TokenServer",
                server("ArgumentParser", "swift-argument-parser"),
                server("Logging", "swift-log"),
                server("ServiceLifecycle", "swift-service-lifecycle"),
            ]
        ),
        // The servers' benchmarks and the hand-written codecs' (docs/performance.md), apart from the
        // shipped CLI: ratios against OpenSSL, wrk, a Node.js token server and grpc-swift's floor,
        // measured in the same run. Its sources sit with the libraries' benchmarks, the package in
        // Benchmarks/, which cannot build it: it needs this package's internal modules.
        .executableTarget(
            name: "fleetauth-bench",
            dependencies: [
                "BrowserDriver",
                "CommandSupport",
                "FleetAuthCodecs",
                "FleetAuthLocking",
                "FleetDemo",
                "GoogleStandIn",
                "FleetTokens",
                "FleetAuthServerHTTP",
                "FleetAuthServerStorage",
                "LocalFleetEngine",
                "LocalFleetEngineGRPCSwift",
                "TokenServer",
                "FleetEngineProtos",
                server("ArgumentParser", "swift-argument-parser"),
                server("SQLKit", "sql-kit"),
                server("Logging", "swift-log"),
                server("NIOHTTP2", "swift-nio-http2"),
                server("NIOHPACK", "swift-nio-http2"),
                server("ServiceLifecycle", "swift-service-lifecycle"),
                server("AsyncHTTPClient", "async-http-client"),
                server("NIOCore", "swift-nio"),
                server("NIOPosix", "swift-nio"),
                server("NIOHTTP1", "swift-nio"),
                server("GRPCCore", "grpc-swift-2"),
                server("GRPCNIOTransportHTTP2", "grpc-swift-nio-transport"),
                server("GRPCProtobuf", "grpc-swift-protobuf"),
                server("SwiftProtobuf", "swift-protobuf"),
            ],
            path: "Benchmarks/Servers"
        ),
        // What the test targets share: the test keys, forged tokens and a hand-moved clock, fresh
        // PostgreSQL databases, running the built `fleetauth` as a child process, raw HTTP, and a
        // transport that dates answers by a test clock.
        .target(
            name: "TestSupport",
            dependencies: [
                "CommandSupport",
                "FleetAuthCodecs",
                "FleetAuthLocking",
                "FleetTokens",
                "FleetTokenProvider",
                "FleetAuthServerStorage",
                server("SQLKit", "sql-kit"),
                server("Crypto", "swift-crypto"),
                server("CryptoExtras", "swift-crypto"),
                server("Logging", "swift-log"),
            ],
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "FleetTokensTests",
            dependencies: [
                "CommandSupport",
                "FleetAuthLocking",
                "FleetAuthCodecs",
                "TestSupport",
                "FleetTokens",
                "FleetTokenProvider",
                "GoogleStandIn",
                server("Hummingbird", "hummingbird"),
                server("HummingbirdTesting", "hummingbird"),
                server("Crypto", "swift-crypto"),
                server("CryptoExtras", "swift-crypto"),
            ]
        ),
        .testTarget(name: "FleetAuthCodecsTests", dependencies: ["FleetAuthCodecs"]),
        .testTarget(name: "CommandSupportTests", dependencies: ["CommandSupport"]),
        .testTarget(
            name: "GoogleStandInTests",
            dependencies: [
                "FleetAuthCodecs",
                "FleetTokens",
                "GoogleStandIn",
                server("Hummingbird", "hummingbird"),
                server("HummingbirdTesting", "hummingbird"),
            ]
        ),
        .testTarget(
            name: "TokenServerTests",
            dependencies: [
                "CommandSupport",
                "FleetAuthCodecs",
                "FleetAuthLocking",
                "TestSupport",
                "TokenServer",
                "GoogleStandIn",
                "FleetTokens",
                "FleetTokenProvider",
                "FleetAuthServerHTTP",
                "FleetAuthServerStorage",
                server("HummingbirdTesting", "hummingbird"),
                server("Crypto", "swift-crypto"),
                server("CryptoExtras", "swift-crypto"),
                // Keep-alive clients for the drain on SIGTERM.
                server("AsyncHTTPClient", "async-http-client"),
            ],
            // Data directories of earlier versions, read by UpgradeTests from the source tree.
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "FleetAuthServerHTTPTests",
            dependencies: [
                "CommandSupport",
                "FleetAuthLocking",
                "TestSupport",
                "FleetAuthServerHTTP",
                server("HummingbirdTesting", "hummingbird"),
                server("Logging", "swift-log"),
                server("NIOPosix", "swift-nio"),
                server("NIOEmbedded", "swift-nio"),
                server("NIOHTTPTypes", "swift-nio-extras"),
            ]
        ),
        .testTarget(
            name: "FleetAuthServerStorageTests",
            dependencies: [
                "CommandSupport",
                "FleetAuthLocking",
                "FleetAuthServerStorage",
                "TestSupport",
                server("SQLKit", "sql-kit"),
                server("SQLiteKit", "sqlite-kit"),
                server("Logging", "swift-log"),
                server("NIOPosix", "swift-nio"),
            ]
        ),
        .testTarget(
            name: "LocalFleetEngineTests",
            dependencies: [
                server("NIOCore", "swift-nio"),
                server("NIOEmbedded", "swift-nio"),
                server("NIOPosix", "swift-nio"),
                server("NIOHPACK", "swift-nio-http2"),
                server("NIOHTTP2", "swift-nio-http2"),
                "CommandSupport",
                "FleetEngineEmulator",
                "FleetAuthCodecs",
                "FleetAuthLocking",
                "TestSupport",
                "LocalFleetEngine",
                "LocalFleetEngineGRPCSwift",
                "FleetEngineProtos",
                "GoogleStandIn",
                "FleetTokens",
                "FleetAuthServerHTTP",
                "FleetAuthServerStorage",
                server("Crypto", "swift-crypto"),
                server("CryptoExtras", "swift-crypto"),
                server("AsyncHTTPClient", "async-http-client"),
                server("HummingbirdTesting", "hummingbird"),
                server("SwiftProtobuf", "swift-protobuf"),
                server("GRPCCore", "grpc-swift-2"),
                server("GRPCNIOTransportHTTP2", "grpc-swift-nio-transport"),
                server("GRPCProtobuf", "grpc-swift-protobuf"),
                server("ServiceLifecycle", "swift-service-lifecycle"),
            ]
        ),
        // End to end: apps (FleetTokenProvider, FleetEngineClient) against the real token server
        // and local Fleet Engine run by LocalFleet, faults and the demo included.
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "FleetAuthLocking",
                "CommandSupport",
                "TestSupport",
                "FleetEngineClient",
                "FleetEngineEmulator",
                "FleetDemo",
                "LocalStack",
                "FleetTokenProvider",
                "FleetTokens",
                "TokenServer",
                "LocalFleetEngine",
                "FleetAuthServerHTTP",
                server("ServiceLifecycle", "swift-service-lifecycle"),
            ]
        ),
        // In headless Chromium: the browser module, CORS on both servers, the example page.
        .testTarget(
            name: "BrowserTests",
            dependencies: [
                "BrowserDriver",
                "CommandSupport",
                "FleetAuthLocking",
                "TestSupport",
                "FleetDemo",
                "FleetEngineClient",
                "FleetEngineProtos",
                "FleetAuthServerStorage",
                "FleetTokenProvider",
                "FleetTokens",
                "TokenServer",
                "LocalFleetEngine",
                "FleetAuthServerHTTP",
                server("Hummingbird", "hummingbird"),
                server("Logging", "swift-log"),
                // The token server's console tests log in and get tokens as apps do.
                server("AsyncHTTPClient", "async-http-client"),
                // The console's tests move vehicles through the gRPC door, as driver apps do.
                server("GRPCCore", "grpc-swift-2"),
                server("GRPCNIOTransportHTTP2", "grpc-swift-nio-transport"),
                server("GRPCProtobuf", "grpc-swift-protobuf"),
            ]
        ),
        .testTarget(
            name: "FleetTokenProviderTests",
            dependencies: [
                "FleetAuthCodecs",
                "FleetAuthLocking",
                "TestSupport",
                "FleetTokenProvider",
                "FleetTokens",
                "FleetAuthServerHTTP",
                server("Hummingbird", "hummingbird"),
                server("ServiceLifecycle", "swift-service-lifecycle"),
            ]
        ),
    ]
)

// Fuzz targets (Fuzz/README.md): libFuzzer executables, one per parser, that exist only when
// FLEETAUTH_FUZZ=1, as scripts/fuzz.sh sets it for its own sanitized build in .build-fuzz.
// Ordinary builds, `swift test` and the packages that depend on FleetAuth never see them.
if Context.environment["FLEETAUTH_FUZZ"] == "1" {
    /// A fuzz target: `Fuzz/<name>/main.swift`, with the shared checks of FuzzSupport.
    func fuzzTarget(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
        .executableTarget(name: name, dependencies: ["FuzzSupport"] + dependencies, path: "Fuzz/\(name)")
    }
    package.targets += [
        .target(name: "FuzzSupport", path: "Fuzz/FuzzSupport"),
        fuzzTarget("FuzzBase64URL", ["FleetAuthCodecs"]),
        fuzzTarget("FuzzTokenVerifier", ["FleetTokens", "FleetAuthCodecs", tokens("Crypto", "swift-crypto")]),
        fuzzTarget("FuzzJSONReaders", ["FleetAuthCodecs"]),
        fuzzTarget("FuzzTimes", ["LocalFleetEngine", server("SwiftProtobuf", "swift-protobuf")]),
        fuzzTarget("FuzzLoginBody", ["TokenServer", "FleetAuthServerHTTP", "FleetAuthCodecs"]),
        fuzzTarget("FuzzRequestBodies", ["LocalFleetEngine", "FleetEngineProtos", "FleetAuthServerHTTP", server("SwiftProtobuf", "swift-protobuf")]),
        fuzzTarget("FuzzListFilter", ["LocalFleetEngine"]),
    ]
}
