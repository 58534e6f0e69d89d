// swift-tools-version:6.1
import PackageDescription

/// A backend that mints and verifies Fleet Engine tokens itself, adding FleetAuth as the
/// README says: `traits: ["Tokens"]` and the FleetTokens product. `scripts/check-consumers.sh`
/// checks that it resolves swift-crypto and swift-asn1 only, and runs the README's example.
let package = Package(
    name: "BackendConsumer",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "fleetauth", path: "../../..", traits: ["Tokens"]),
    ],
    targets: [
        .executableTarget(
            name: "MintAndVerify",
            dependencies: [.product(name: "FleetTokens", package: "fleetauth")]
        ),
    ]
)
