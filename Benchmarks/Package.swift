// swift-tools-version:6.1
import PackageDescription

/// FleetAuth's library benchmarks, on ordo-one/benchmark, in a package of their own so that
/// neither the benchmark package nor its malloc interposer reaches anyone who depends on
/// FleetAuth. They measure what apps and backends call (FleetTokens, FleetTokenProvider), each
/// beside a reference measured in the same run, with the promises in `Thresholds/`.
///
///   swift package benchmark                     # run them all
///   swift package benchmark thresholds check    # and check the promises
///
/// The servers' benchmarks (the token server beside Node.js and wrk, the local Fleet Engine)
/// drive `fleetauth` processes and use its internal modules: they are `fleetauth-bench`, whose
/// sources are in `Servers/` but which the main package builds. `../scripts/bench.sh` runs both
/// (docs/performance.md).
let package = Package(
    name: "fleetauth-benchmarks",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        // The library side only: no server package is resolved.
        .package(name: "fleetauth", path: "..", traits: ["Tokens"]),
        // swift-crypto's RSA is a reference the token benchmarks run beside.
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // OpenSSL's libcrypto, for the reference RSA-2048 signer the token benchmarks run beside
        // FleetTokens (what `openssl speed rsa2048` measures, in-process).
        .systemLibrary(name: "COpenSSLReference", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        // How long each benchmark runs: the same for all, shorter with FLEETAUTH_BENCH_QUICK.
        .target(name: "BenchmarkSettings", dependencies: [.product(name: "Benchmark", package: "benchmark")]),
        .executableTarget(
            name: "Tokens",
            dependencies: [
                "BenchmarkSettings",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "FleetTokens", package: "fleetauth"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .target(name: "COpenSSLReference", condition: .when(platforms: [.linux])),
            ],
            path: "Benchmarks/Tokens",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "TokenProvider",
            dependencies: [
                "BenchmarkSettings",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "FleetTokenProvider", package: "fleetauth"),
            ],
            path: "Benchmarks/TokenProvider",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
