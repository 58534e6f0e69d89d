import CommandSupport
import FleetDemo
import ArgumentParser
import Crypto
import CryptoExtras
import Foundation
import FleetTokens

/// `fleetauth-bench tokens`: mint/s and verify/s (new and cached) next to `openssl speed rsa2048`,
/// interleaved round by round, reported as medians and ratios.
struct TokenBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tokens",
        abstract: "Mint and verify throughput against OpenSSL's RSA-2048 on the same core."
    )

    @Option(help: "Rounds to interleave (medians are reported).")
    var rounds = 5

    @Option(help: "Seconds per measurement.")
    var seconds = 2

    @Flag(help: "Print JSON.")
    var json = false

    struct Report: Encodable {
        let opensslSignPerSecond: Double
        let opensslVerifyPerSecond: Double
        let rawSignPerSecond: Double
        let rawVerifyPerSecond: Double
        let mintPerSecond: Double
        let verifyNewPerSecond: Double
        let verifyCachedPerSecond: Double
        let mintRatio: Double
        let verifyNewRatio: Double
    }

    func run() throws {
        let key = try ServiceAccountKey.generate(projectID: "bench-project", role: .driverSDKUser)
        let minter = try TokenMinter(key: key)
        let verifier = TokenVerifier(trusting: [TrustedServiceAccount(key: key, role: .driverSDKUser)])
        let token = try minter.mint(.driver(vehicleID: "vehicle-42")).token
        _ = try verifier.verify(token)

        var openssl: [OpenSSLSpeed.Result] = []
        var mints: [Double] = [], verifies: [Double] = [], cached: [Double] = []
        var rawSigns: [Double] = [], rawVerifies: [Double] = []
        let digest = SHA256.hash(data: Data(token.utf8))
        let signature = try key.privateKey.backing.signature(for: digest, padding: .insecurePKCS1v1_5)
        for round in 1...rounds {
            openssl.append(try OpenSSLSpeed.measure(seconds: seconds))
            rawSigns.append(try Throughput.measure(seconds: Double(seconds)) { _ = try key.privateKey.backing.signature(for: digest, padding: .insecurePKCS1v1_5) })
            rawVerifies.append(Throughput.measure(seconds: Double(seconds)) { _ = key.publicKey.backing.isValidSignature(signature, for: digest, padding: .insecurePKCS1v1_5) })
            mints.append(try Throughput.measure(seconds: Double(seconds)) { _ = try minter.mint(.driver(vehicleID: "vehicle-42")) })
            verifies.append(try Throughput.measure(seconds: Double(seconds)) { _ = try verifier.verifyWithoutCache(token) })
            cached.append(try Throughput.measure(seconds: Double(seconds)) { _ = try verifier.verify(token) })
            if !json { FileHandle.standardError.write(Data("round \(round)/\(rounds) done\n".utf8)) }
        }
        let signReference = Throughput.median(openssl.map(\.signsPerSecond))
        let verifyReference = Throughput.median(openssl.map(\.verifiesPerSecond))
        let report = Report(
            opensslSignPerSecond: signReference,
            opensslVerifyPerSecond: verifyReference,
            rawSignPerSecond: Throughput.median(rawSigns),
            rawVerifyPerSecond: Throughput.median(rawVerifies),
            mintPerSecond: Throughput.median(mints),
            verifyNewPerSecond: Throughput.median(verifies),
            verifyCachedPerSecond: Throughput.median(cached),
            mintRatio: Throughput.median(mints) / signReference,
            verifyNewRatio: Throughput.median(verifies) / verifyReference
        )
        if json {
            try JSONOutput.print(report)
            return
        }
        print("                       ops/s     vs OpenSSL   target")
        print(row("openssl sign", report.opensslSignPerSecond, nil, ""))
        print(row("openssl verify", report.opensslVerifyPerSecond, nil, ""))
        print(row("swift-crypto sign", report.rawSignPerSecond, report.rawSignPerSecond / signReference, "(raw RSA, reference)"))
        print(row("swift-crypto verify", report.rawVerifyPerSecond, report.rawVerifyPerSecond / verifyReference, "(raw RSA, reference)"))
        print(row("mint", report.mintPerSecond, report.mintRatio, ">= 0.90x sign"))
        print(row("verify (new token)", report.verifyNewPerSecond, report.verifyNewRatio, ">= 0.80x verify"))
        print(row("verify (cached)", report.verifyCachedPerSecond, nil, ">= 1,000,000/s"))
    }

    private func row(_ name: String, _ rate: Double, _ ratio: Double?, _ target: String) -> String {
        let ratioText = ratio.map { String(format: "%.2fx", $0) } ?? ""
        return name.padding(toLength: 20, withPad: " ", startingAt: 0)
            + String(format: "%12.0f", rate) + "   " + ratioText.padding(toLength: 10, withPad: " ", startingAt: 0) + "  " + target
    }
}
