import CommandSupport
import FleetAuthCodecs
import Foundation
import TestSupport
import Testing

@testable import FleetTokens

/// Runs the independent PyJWT implementation in `Tests/Interop/pyjwt_interop.py`.
enum PyJWT {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Interop/pyjwt_interop.py").path

    /// Whether python3 with PyJWT and cryptography is here. CI installs them, so there a
    /// missing module fails the run instead of skipping.
    static func isAvailable() async -> Bool {
        if ProcessInfo.processInfo.environment["CI"] != nil { return true }
        return (try? await run(["-c", "import jwt, cryptography"])) != nil
    }

    /// Runs python3 with `arguments` (as a ``ChildProcess``, so that no test thread blocks on
    /// it); returns the last line it printed (the result: anything before it is what Python
    /// warned about), or throws with everything it printed.
    static func run(_ arguments: [String]) async throws -> String {
        let exit = try await ChildProcess(["python3"] + arguments).exit(within: .seconds(60))
        guard exit.exited, exit.status == 0 else {
            throw InteropFailure(message: "python3 \(arguments.first ?? "") failed: \(exit.output)")
        }
        return exit.output.split(separator: "\n").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
    }

    struct InteropFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}

@Suite(
    "Interoperability with PyJWT (an independent JWT implementation)",
    .enabled("python3 with PyJWT and cryptography is not installed (pip install PyJWT cryptography); CI installs them")
    { await PyJWT.isAvailable() }
)
struct InteropTests {
    let keyFile: String = {
        let path = NSTemporaryDirectory() + "fleetauth-interop-\(UUID().uuidString).json"
        try! TestKeys.driver.write(to: path)
        return path
    }()

    @Test("a token minted here verifies in PyJWT with the same header and claims")
    func mintedHereVerifiesThere() async throws {
        let minted = try TokenMinter(key: TestKeys.driver).mint(
            .driver(vehicleID: "vehicle-interop"), lifetime: .seconds(900))
        let output = try await PyJWT.run([PyJWT.script, "verify", keyFile, minted.token])
        let decoded = try #require(
            try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: [String: Any]])
        #expect(decoded["header"]?["kid"] as? String == TestKeys.driver.privateKeyID)
        #expect(decoded["header"]?["alg"] as? String == "RS256")
        #expect(decoded["header"]?["typ"] as? String == "JWT")
        let claims = try #require(decoded["claims"])
        #expect(claims["iss"] as? String == TestKeys.driver.clientEmail)
        #expect(claims["sub"] as? String == TestKeys.driver.clientEmail)
        #expect(claims["aud"] as? String == FleetEngineClaims.fleetEngineAudience)
        #expect((claims["exp"] as? NSNumber)?.int64Value == minted.claims.expiresAt)
        #expect((claims["iat"] as? NSNumber)?.int64Value == minted.claims.issuedAt)
        #expect(claims["authorization"] as? [String: String] == ["vehicleid": "vehicle-interop"])
    }

    @Test("PyJWT refuses a token minted here once it is tampered with")
    func tamperedRefusedThere() async throws {
        let minted = try TokenMinter(key: TestKeys.driver).mint(.driver(vehicleID: "v"))
        var parts = minted.token.split(separator: ".").map(String.init)
        parts[1] = Base64URL.encode(Data("{\"iss\":\"x\"}".utf8))
        await #expect(throws: PyJWT.InteropFailure.self) {
            try await PyJWT.run([PyJWT.script, "verify", keyFile, parts.joined(separator: ".")])
        }
    }

    @Test("a token PyJWT mints with a keygen key file verifies here")
    func mintedThereVerifiesHere() async throws {
        let token = try await PyJWT.run([PyJWT.script, "mint", keyFile, "vehicle-py", "1200"])
        let verifier = TokenVerifier(trusting: [
            TrustedServiceAccount(key: try ServiceAccountKey(contentsOf: keyFile), role: .driverSDKUser)
        ])
        let verified = try verifier.verify(token)
        #expect(verified.authorization == AuthorizationClaims(vehicleID: "vehicle-py"))
        #expect(verified.claims.lifetime == 1200)
        #expect(verified.role == .driverSDKUser)
        #expect(verified.keyID == TestKeys.driver.privateKeyID)
    }
}
