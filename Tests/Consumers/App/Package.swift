// swift-tools-version:6.2
import PackageDescription

/// An app as the README tells one to add FleetAuth: `traits: []`, FleetTokenProvider and
/// FleetEngineClient only. `scripts/check-consumers.sh` checks that it resolves no other
/// package, and builds the docs' SDK conformance (docs/app.md) in three settings: Xcode 26's main-actor
/// default isolation, Swift 6, and Swift 5.
let package = Package(
    name: "AppConsumer",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        .package(name: "fleetauth", path: "../../..", traits: []),
    ],
    targets: [
        // The Driver and Consumer SDKs' authorization protocols, with Google's Swift signatures,
        // built as an SDK module is: Swift 5, no default isolation, nothing marked Sendable.
        .target(name: "DriverSDKStubs", swiftSettings: [.swiftLanguageMode(.v5)]),
        // The part of Firebase Authentication docs/token-server.md's "Bring your own login" uses.
        .target(name: "FirebaseAuth", swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(
            name: "SnippetsMainActor",
            dependencies: appDependencies,
            swiftSettings: [.defaultIsolation(MainActor.self)]
        ),
        .target(name: "SnippetsSwift6", dependencies: appDependencies),
        .target(
            name: "SnippetsSwift5",
            dependencies: appDependencies,
            swiftSettings: [.swiftLanguageMode(.v5), .enableExperimentalFeature("StrictConcurrency")]
        ),
    ]
)

var appDependencies: [Target.Dependency] {
    [
        "DriverSDKStubs",
        "FirebaseAuth",
        .product(name: "FleetTokenProvider", package: "fleetauth"),
        .product(name: "FleetEngineClient", package: "fleetauth"),
    ]
}
