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
        .executable(name: "fleetauth", targets: ["fleetauth"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
    ],
    targets: [
        .target(
            name: "FleetTokens",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .target(name: "FleetTokenProvider"),
        .executableTarget(
            name: "fleetauth",
            dependencies: [
                "FleetTokens",
                "FleetTokenProvider",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "FleetTokensTests",
            dependencies: [
                "FleetTokens",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
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
