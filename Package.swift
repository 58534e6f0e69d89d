// swift-tools-version:6.0
import PackageDescription

/// FleetAuth: Fleet Engine–style authorization tokens, from the server that signs them,
/// through the apps that fetch and reuse them, to the service that checks them.
///
/// Dependency direction (kept one way on purpose):
///   apps → FleetTokenProvider (Foundation only)
///   FleetEngineClient → FleetTokenProvider
///   TokenServer, LocalFleetEngine → FleetTokens
///   fleetauth → everything
let package = Package(
    name: "fleetauth",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "FleetTokens", targets: ["FleetTokens"]),
        .library(name: "FleetTokenProvider", targets: ["FleetTokenProvider"]),
        .library(name: "FleetEngineClient", targets: ["FleetEngineClient"]),
        .executable(name: "fleetauth", targets: ["fleetauth"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
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
        // OpenID Connect issuers (both through FleetServerSupport); the demo's apps share one client.
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        // `fleetauth bench fleet-engine` drives HTTP load with a lean NIO client.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
    ],
    targets: [
        // On Linux, tokens are signed with the system's OpenSSL 3 libcrypto (faster than BoringSSL's
        // RSA signing on CPUs with AVX-512 IFMA); elsewhere with swift-crypto.
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .target(
            name: "FleetTokens",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .target(name: "COpenSSL", condition: .when(platforms: [.linux])),
            ]
        ),
        .target(name: "FleetTokenProvider"),
        .target(name: "FleetEngineClient", dependencies: ["FleetTokenProvider"]),
        .target(
            name: "FleetServerSupport",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .target(
            name: "LocalFleetEngine",
            dependencies: [
                "FleetTokens",
                "FleetServerSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "TokenServer",
            dependencies: [
                "FleetTokens",
                "FleetServerSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            resources: [.embedInCode("Resources/token-server.openapi.yaml")]
        ),
        .executableTarget(
            name: "fleetauth",
            dependencies: [
                "FleetTokens",
                "FleetTokenProvider",
                "FleetEngineClient",
                "FleetServerSupport",
                "LocalFleetEngine",
                "TokenServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // What several test targets share: running the built `fleetauth` as a child process.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "FleetTokensTests",
            dependencies: [
                "TestSupport",
                "FleetTokens",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "TokenServerTests",
            dependencies: [
                "TestSupport",
                "TokenServer",
                "FleetTokens",
                "FleetServerSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "FleetServerSupportTests",
            dependencies: [
                "FleetServerSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "LocalFleetEngineTests",
            dependencies: [
                "TestSupport",
                "LocalFleetEngine",
                "FleetTokens",
                "FleetServerSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "FleetEngineClientTests",
            dependencies: [
                "TestSupport",
                "FleetEngineClient",
                "fleetauth",
                "FleetTokenProvider",
                "FleetTokens",
                "TokenServer",
                "LocalFleetEngine",
                "FleetServerSupport",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "FleetTokenProviderTests",
            dependencies: [
                "FleetTokenProvider",
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
    ]
)
