import Benchmark
import BenchmarkSettings
import Crypto
import CryptoExtras
import FleetTokens
import Foundation

/// FleetTokens' mint and verify, beside the RSA-2048 they are built on: OpenSSL's (what
/// `openssl speed rsa2048` times) and swift-crypto's (BoringSSL). The two ratio benchmarks
/// interleave ours with OpenSSL's so that both meet the same machine; their promises (mint ≥ 90 %
/// of OpenSSL's sign, a new-token verify ≥ 80 % of its verify) are in `Thresholds/`.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = BenchmarkSettings.configuration([.throughput, .wallClock, .mallocCountTotal])
    let tokens: TokenFixture
    let swiftCrypto: SwiftCryptoReference
    do {
        tokens = try TokenFixture()
        swiftCrypto = try SwiftCryptoReference()
    } catch {
        fatalError("could not set up the token benchmarks: \(error)")
    }

    Benchmark("Mint-driver-token") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try tokens.minter.mint(.driver(vehicleID: "vehicle-42"))) }
    }
    Benchmark("Verify-new-token") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try tokens.verifier.verifyWithoutCache(tokens.token)) }
    }
    Benchmark(
        "Verify-cached-token",
        configuration: BenchmarkSettings.configuration(
            [.throughput, .wallClock, .mallocCountTotal], scalingFactor: .kilo)
    ) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try tokens.verifier.verify(tokens.token)) }
    }

    Benchmark("Reference-RSA-2048-sign-swift-crypto") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try swiftCrypto.sign()) }
    }
    Benchmark("Reference-RSA-2048-verify-swift-crypto") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(swiftCrypto.verify()) }
    }

    #if canImport(COpenSSLReference)
        guard let openSSL = OpenSSLReference() else { fatalError("OpenSSL's libcrypto could not make an RSA-2048 key") }
        Benchmark("Reference-RSA-2048-sign-OpenSSL") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(openSSL.sign()) }
        }
        Benchmark("Reference-RSA-2048-verify-OpenSSL") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(openSSL.verify()) }
        }
        Benchmark("Mint-against-OpenSSL-sign", configuration: BenchmarkSettings.configuration([.percentOfReference])) {
            benchmark in
            benchmark.measurement(
                .percentOfReference,
                try CPUTime.percentOfReference(pairs: 50) {
                    _ = try tokens.minter.mint(.driver(vehicleID: "vehicle-42"))
                } reference: {
                    openSSL.sign()
                })
        }
        Benchmark(
            "Verify-new-token-against-OpenSSL-verify",
            configuration: BenchmarkSettings.configuration([.percentOfReference])
        ) { benchmark in
            benchmark.measurement(
                .percentOfReference,
                try CPUTime.percentOfReference(pairs: 100) {
                    _ = try tokens.verifier.verifyWithoutCache(tokens.token)
                } reference: {
                    openSSL.verify()
                })
        }
    #endif
}

/// A service account's key, a minter and a verifier trusting it, and one token it minted.
private struct TokenFixture {
    let minter: TokenMinter
    let verifier: TokenVerifier
    let token: String

    init() throws {
        let key = try ServiceAccountKey.generate(projectID: "bench-project", role: .driverSDKUser)
        minter = try TokenMinter(key: key)
        verifier = TokenVerifier(trusting: [TrustedServiceAccount(key: key, role: .driverSDKUser)])
        token = try minter.mint(.driver(vehicleID: "vehicle-42")).token
        _ = try verifier.verify(token)
    }
}

/// swift-crypto's RSA-2048 (BoringSSL) signing and verifying a SHA-256 digest with PKCS #1 v1.5.
private struct SwiftCryptoReference {
    let key: _RSA.Signing.PrivateKey
    let digest = SHA256.hash(data: Data("a message to sign".utf8))
    let signature: _RSA.Signing.RSASignature

    init() throws {
        key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        signature = try key.signature(for: digest, padding: .insecurePKCS1v1_5)
    }

    func sign() throws -> _RSA.Signing.RSASignature {
        try key.signature(for: digest, padding: .insecurePKCS1v1_5)
    }

    func verify() -> Bool {
        key.publicKey.isValidSignature(signature, for: digest, padding: .insecurePKCS1v1_5)
    }
}
