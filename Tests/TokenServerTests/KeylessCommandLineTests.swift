import CommandSupport
import Foundation
import GoogleStandIn
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

/// `fleetauth mint --signer`, `verify --trust-account` and the `--signer` flag's checks, as a
/// person runs them, against the Google stand-in on loopback.
@Suite("fleetauth keyless commands")
struct KeylessCommandLineTests {
    static let driver = "fe-driver@cli-keyless.iam.gserviceaccount.com"
    /// Another account that exists, whose keys did not sign the token.
    static let other = "fe-driver@someone-else.iam.gserviceaccount.com"

    @Test("mint --signer signs through IAM; verify --trust-account accepts it, and refuses it for another account")
    func mintAndVerifyKeylessly() async throws {
        try await GoogleStandIn(serviceAccounts: [Self.driver, Self.other]).application(port: 0).test(.live) { google in
            let base = "http://127.0.0.1:\(try #require(google.port))"
            let mint = try ChildProcess(
                [
                    try ChildProcess.fleetauth,
                    "mint", "--signer", Self.driver, "--iam-credentials-url", base, "--kind", "driver", "--vehicle",
                    "vehicle-9",
                ], environment: ["GCE_METADATA_HOST": String(base.dropFirst("http://".count))])
            let minted = try await mint.exit()
            #expect(minted.status == 0, "\(minted.output)")
            let token = minted.output.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(token.split(separator: ".").count == 3)

            let verified = try await ChildProcess.runFleetauth([
                "verify", token, "--trust-account", "driver=\(Self.driver)", "--google-certs-url", base,
            ])
            #expect(
                verified.status == 0 && verified.output.contains("accepted: signed by \(Self.driver)")
                    && verified.output.contains("vehicleid: vehicle-9"), "\(verified.output)")

            let refused = try await ChildProcess.runFleetauth([
                "verify", token, "--trust-account", "driver=\(Self.other)", "--google-certs-url", base,
            ])
            #expect(refused.status == 1 && refused.output.contains("refused"), "\(refused.output)")
        }
    }

    @Test("a malformed --signer or --trust-account is refused with the expected form")
    func malformedFlags() async throws {
        let signer = try await ChildProcess.runFleetauth([
            "token-server", "--data-dir", "/tmp/never-made", "--signer", "pilot=x@y",
        ])
        #expect(signer.status != 0 && signer.output.contains("--signer takes ROLE=EMAIL"), "\(signer.output)")
        let trust = try await ChildProcess.runFleetauth(["fleet-engine", "--project", "p", "--trust-account", "driver"])
        #expect(trust.status != 0 && trust.output.contains("--trust-account takes ROLE=EMAIL"), "\(trust.output)")
    }
}
