import FleetTokens
import Foundation
import GoogleStandIn
import Hummingbird
import HummingbirdTesting
import Logging
import TestSupport
import Testing

@testable import TokenServer

/// The token server signing driver tokens through IAM (the Google stand-in on loopback) while
/// the other roles keep their key files.
@Suite("Token server, keyless", .timeLimit(.minutes(3)))
struct KeylessTokenServerTests {
    static let driverAccount = "fe-driver@keyless-test.iam.gserviceaccount.com"

    /// A stand-in and a token server whose driver role signs through it, both on loopback.
    func withKeylessServer(
        reuseTokens: Bool? = nil,
        clock: TestClock = TestClock(),
        logger: Logger = Logger(label: "test"),
        _ body: @Sendable @escaping (Client, GoogleStandIn, TestClock) async throws -> Void
    ) async throws {
        let standIn = GoogleStandIn(serviceAccounts: [Self.driverAccount], silence: .seconds(1))
        try await standIn.application(port: 0).test(.live) { google in
            let port = try #require(google.port)
            var options = TestServer.options(clock: clock)
            options.keyless = KeylessSigning(
                signers: [.driverSDKUser: Self.driverAccount],
                iamCredentialsURL: URL(string: "http://127.0.0.1:\(port)")!,
                metadataHost: "127.0.0.1:\(port)",
                reuseTokens: reuseTokens
            )
            try await TestDatabase.with(.sqlite) { database in
                let server = try await TestServer.open(
                    dataDirectory: database.folder + "/data", database: database.location, options: options,
                    logger: logger)
                try await server.serve { client in try await body(client, standIn, clock) }
            }
        }
    }

    /// A verifier of the driver account's tokens, with the keys the stand-in publishes for it.
    func driverVerifier(_ standIn: GoogleStandIn, clock: TestClock) async throws -> TokenVerifier {
        var keys: [JSONWebKey] = []
        for key in try await standIn.accounts.publishedKeys(of: Self.driverAccount) {
            keys.append(try JSONWebKey(publishing: key.privateKey.publicKey, keyID: key.id))
        }
        let accounts = try JSONWebKeySet(keys: keys).trustedAccounts(email: Self.driverAccount, role: .driverSDKUser)
        return TokenVerifier(trusting: accounts, now: clock.function)
    }

    @Test(
        "the driver's token is the one IAM signed, with the right claims and IAM's kid; the access token is fetched once"
    )
    func tokenIsWhatIAMSigned() async throws {
        try await withKeylessServer { client, standIn, clock in
            let session = try await client.enroll(
                "ann", role: "driver", assigned: ["vehicles/v-1/driver", "vehicles/v-2/driver"])
            let response = try await client.token("driver/v-1", session: session)
            let verified = try response.verifiedToken(try await driverVerifier(standIn, clock: clock))
            #expect(verified.claims.issuer == Self.driverAccount)
            #expect(verified.claims.authorization == AuthorizationClaims(vehicleID: "v-1"))
            #expect(verified.keyID == (try await standIn.accounts.publishedKeys(of: Self.driverAccount).first?.id))
            #expect(try response.json()["expiresAt"] as? Int == 1_800_001_800)
            _ = try await client.token("driver/v-2", session: session).verifiedToken(
                try await driverVerifier(standIn, clock: clock))
            let calls = await standIn.accounts.calls
            // A signature a token (more only when a call outlived the signer's timeout on a
            // loaded machine and was sent again), and one access token for all of them.
            #expect(calls.metadataToken == 1 && calls.signJwt >= 2)
        }
    }

    @Test(
        "reuse: the same token while more than half its life is left, with its true expiry; a new one after; never across vehicles"
    )
    func tokensAreReusedForHalfTheirLife() async throws {
        try await withKeylessServer { client, standIn, clock in
            let session = try await client.enroll(
                "ann", role: "driver", assigned: ["vehicles/v-1/driver", "vehicles/v-2/driver"])
            let first = try await client.token("driver/v-1", session: session).json()
            clock.advance(by: 899)  // 1800 s tokens: 901 s left
            let again = try await client.token("driver/v-1", session: session).json()
            #expect(again["token"] as? String == first["token"] as? String)
            #expect(again["expiresAt"] as? Int == first["expiresAt"] as? Int)
            #expect(
                first["expiresInSeconds"] as? Int == 1800 && again["expiresInSeconds"] as? Int == 901,
                "what is left, not the lifetime")
            #expect(again["issuedAt"] as? Int == 1_800_000_000)
            let other = try await client.token("driver/v-2", session: session).json()
            #expect(other["token"] as? String != first["token"] as? String)
            #expect(await standIn.accounts.calls.signJwt == 2)
            clock.advance(by: 1)  // exactly half left: sign anew
            let renewed = try await client.token("driver/v-1", session: session).json()
            #expect(renewed["token"] as? String != first["token"] as? String)
            #expect(renewed["issuedAt"] as? Int == 1_800_000_900)
            #expect(await standIn.accounts.calls.signJwt == 3)
        }
    }

    @Test("a reused token still needs the session and the assignment: unassigning refuses the next request")
    func reuseKeepsEveryCheck() async throws {
        try await withKeylessServer { client, _, _ in
            let session = try await client.enroll("ann", role: "driver", assigned: ["vehicles/v-1/driver"])
            _ = try await client.token("driver/v-1", session: session).json()
            let removed = try await client.admin(.delete, "/v1/admin/vehicles/v-1/driver")
            #expect(removed.status == .noContent)
            try await client.token("driver/v-1", session: session).expectRefusal(.forbidden, "PERMISSION_DENIED")
        }
    }

    @Test("with --no-reuse-tokens every request signs")
    func reuseCanBeTurnedOff() async throws {
        try await withKeylessServer(reuseTokens: false) { client, standIn, _ in
            let session = try await client.enroll("ann", role: "driver", assigned: ["vehicles/v-1/driver"])
            for _ in 0..<3 { _ = try await client.token("driver/v-1", session: session).json() }
            // At least one signature a request (reused, the three would need one); on a loaded
            // machine a signJwt call that outlives the signer's timeout is sent again, and the
            // stand-in counts both.
            #expect(await standIn.accounts.calls.signJwt >= 3)
        }
    }

    @Test(
        "IAM refusing is a 503 that says what to grant, with no secret in it or the log; once allowed, the next request works"
    )
    func iamRefusalIsClear() async throws {
        let logs = LogRecorder()
        try await withKeylessServer(logger: logs.logger) { client, standIn, _ in
            let session = try await client.enroll("ann", role: "driver", assigned: ["vehicles/v-1/driver"])
            await standIn.accounts.setDenied(true, for: Self.driverAccount)
            let message = try await client.token("driver/v-1", session: session).expectRefusal(
                .serviceUnavailable, "UNAVAILABLE")
            #expect(message.contains("roles/iam.serviceAccountTokenCreator") && message.contains(Self.driverAccount))
            #expect(!message.contains("ya29.") && !message.contains(session))
            await standIn.accounts.setDenied(false, for: Self.driverAccount)
            let token = try #require(try await client.token("driver/v-1", session: session).json()["token"] as? String)
            let logged = logs.text
            #expect(logged.contains("token not signed"))
            for secret in [session, token, "ya29."] { #expect(!logged.contains(secret), "a secret in the log") }
        }
    }

    @Test("IAM answering 429 or 500 is tried again; failing every attempt is a 503, and not sticky")
    func iamFaults() async throws {
        try await withKeylessServer { client, standIn, _ in
            let session = try await client.enroll(
                "ann", role: "driver", assigned: ["vehicles/v-1/driver", "vehicles/v-2/driver"])
            await standIn.accounts.injectSignJwtFaults([429, 500])
            #expect(try await client.token("driver/v-1", session: session).status == .ok)
            await standIn.accounts.injectSignJwtFaults([500, 500, 500])
            try await client.token("driver/v-2", session: session).expectRefusal(.serviceUnavailable, "UNAVAILABLE")
            #expect(try await client.token("driver/v-2", session: session).status == .ok)
        }
    }

    @Test("roles without --signer keep signing with their key files")
    func keyFileRolesAreUnchanged() async throws {
        try await withKeylessServer { client, standIn, _ in
            let session = try await client.enroll("cat", role: "consumer", assigned: ["trips/t-1/consumer"])
            let verified = try await client.token("consumer/t-1", session: session).verifiedToken(
                try await verifier(from: client))
            #expect(verified.claims.issuer == TestKeys.byRole[.consumerSDKUser]?.clientEmail)
            #expect(await standIn.accounts.calls.signJwt == 0)
        }
    }
}
