import Crypto
import FleetTokens
import Foundation
import HummingbirdTesting
import Logging
import TestSupport
import Testing

@testable import TokenServer

/// A token server trusting a loopback OpenID Connect issuer, with its test clock.
struct OIDCSetup: Sendable {
    static let audience = "fleet-app"

    let client: Client
    let issuer: OIDCIssuerStandIn
    let clock: TestClock

    /// Starts an issuer publishing `keys` and a token server trusting it (audience
    /// ``audience``, keys refetched at most every 10 s of the test clock), then runs `body`.
    static func run(
        _ backend: StoreBackend = .sqlite,
        keys: [IssuerKey] = [OIDCKeys.rsa, OIDCKeys.ec],
        logger: Logger = Logger(label: "test"),
        _ body: @Sendable @escaping (OIDCSetup) async throws -> Void
    ) async throws {
        // The database first: a skipped PostgreSQL run must not start (and at once stop) an issuer.
        try await TestDatabase.with(backend) { database in
            try await OIDCIssuerStandIn.with(keys: keys) { issuer in
                let clock = TestClock()
                var options = TestServer.options(clock: clock)
                options.oidc = OIDCSettings(
                    issuers: [issuer.issuer], audiences: ["other-app", audience], requestTimeout: .seconds(30))
                let server = try await TestServer.open(
                    dataDirectory: database.folder + "/data", database: database.location, options: options,
                    logger: logger)
                try await server.serve { client in
                    try await body(OIDCSetup(client: client, issuer: issuer, clock: clock))
                }
            }
        }
    }

    /// Claims of a good ID token for `subject`, issued now by the test clock.
    func claims(_ subject: String) -> [String: any Sendable] {
        let now = Int(clock.now.timeIntervalSince1970)
        return ["sub": subject, "aud": Self.audience, "iat": now, "exp": now + 3600, "email": "\(subject)@example.com"]
    }

    /// A good ID token for `subject` signed by `key`.
    func idToken(_ subject: String, key: IssuerKey = OIDCKeys.rsa) -> String {
        issuer.idToken(claims(subject), signedBy: key)
    }

    /// Creates an account linked to `subject` (no password) through the admin API.
    func link(_ username: String, role: String, subject: String, assigned resources: [String] = []) async throws {
        let body =
            #"{"username":"\#(username)","role":"\#(role)","identity":{"issuer":"\#(issuer.issuer)","subject":"\#(subject)"}}"#
        let response = try await client.admin(.post, "/v1/admin/accounts", json: body)
        try #require(response.status == .created, "creating \(username): \(String(buffer: response.body))")
        for resource in resources { try await client.assign(resource, to: username) }
    }
}

/// The issuer's keys in these tests, and a stranger's.
enum OIDCKeys {
    static let rsa = IssuerKey.rsa("rsa-1", from: .driverSDKUser)
    static let ec = IssuerKey.p256("ec-1")
    static let rotated = IssuerKey.rsa("rsa-2", from: .consumerSDKUser)
    /// A key the issuer never published.
    static let stranger = IssuerKey.rsa("stranger", from: .serviceSuperUser)
}

@Suite("Logins with the app's OpenID Connect ID tokens")
struct OIDCLoginTests {
    @Test(
        "a driver's (RS256) and a consumer's (ES256) ID tokens get their Fleet Engine tokens",
        arguments: StoreBackend.allCases)
    func driverAndConsumer(backend: StoreBackend) async throws {
        try await OIDCSetup.run(backend) { setup in
            try await setup.link("ann", role: "driver", subject: "firebase-uid-ann", assigned: ["vehicles/v-17/driver"])
            try await setup.link("cat", role: "consumer", subject: "firebase-uid-cat", assigned: ["trips/t-1/consumer"])
            let verifier = try await verifier(from: setup.client)

            let driver = try await setup.client.token("driver/v-17", session: setup.idToken("firebase-uid-ann"))
            #expect(driver.headers[.cacheControl] == "no-store")
            let driverToken = try driver.verifiedToken(verifier)
            #expect(driverToken.role == .driverSDKUser)
            #expect(driverToken.claims.authorization == AuthorizationClaims(vehicleID: "v-17"))

            let consumer = try await setup.client.token(
                "consumer/t-1", session: setup.idToken("firebase-uid-cat", key: OIDCKeys.ec))
            let consumerToken = try consumer.verifiedToken(verifier)
            #expect(consumerToken.role == .consumerSDKUser)
            #expect(consumerToken.claims.authorization == AuthorizationClaims(tripID: "t-1"))

            // Everything else is as with a session: the assignment, the role, no wildcard.
            let annToken = setup.idToken("firebase-uid-ann")
            let unassigned = try await setup.client.token("driver/v-18", session: annToken).expectRefusal(
                .forbidden, "PERMISSION_DENIED")
            #expect(unassigned == "account \"ann\" is not assigned to vehicle \"v-18\"")
            try await setup.client.token("driver/*", session: annToken).expectRefusal(.forbidden, "PERMISSION_DENIED")
            try await setup.client.token("consumer/t-1", session: annToken).expectRefusal(
                .forbidden, "PERMISSION_DENIED")
            #expect(setup.issuer.jwksFetches == 1, "one fetch serves both keys")
        }
    }

    @Test("ID tokens that break a rule get 401 naming the rule; a good one of an unlinked subject gets 403")
    func refusals() async throws {
        try await OIDCSetup.run { setup in
            try await setup.link("ann", role: "driver", subject: "uid-ann", assigned: ["vehicles/v-1/driver"])
            let issuer = setup.issuer
            let good = setup.claims("uid-ann")
            let now = Int(setup.clock.now.timeIntervalSince1970)
            func with(_ changes: [String: any Sendable], without removed: String? = nil) -> [String: any Sendable] {
                var claims = good.merging(changes) { $1 }
                if let removed { claims[removed] = nil }
                return claims
            }
            let publicKeyBytes = try JSONEncoder().encode(OIDCKeys.rsa.jsonWebKey)
            let cases: [(what: String, token: String, message: String)] = [
                (
                    "wrong aud", issuer.idToken(with(["aud": "someone-else"]), signedBy: OIDCKeys.rsa),
                    "ID token audience is not trusted"
                ),
                (
                    "wrong aud array", issuer.idToken(with(["aud": ["a", "b"]]), signedBy: OIDCKeys.rsa),
                    "ID token audience is not trusted"
                ),
                (
                    "wrong iss", issuer.idToken(with(["iss": "https://accounts.example.com"]), signedBy: OIDCKeys.rsa),
                    "ID token issuer is not trusted"
                ),
                (
                    "iss with a trailing slash",
                    issuer.idToken(with(["iss": issuer.issuer + "/"]), signedBy: OIDCKeys.rsa),
                    "ID token issuer is not trusted"
                ),
                (
                    "expired", issuer.idToken(with(["iat": now - 7200, "exp": now - 3600]), signedBy: OIDCKeys.rsa),
                    "ID token has expired"
                ),
                (
                    "iat in the future",
                    issuer.idToken(with(["iat": now + 600, "exp": now + 4200]), signedBy: OIDCKeys.rsa),
                    "ID token 'iat' is in the future"
                ),
                (
                    "nbf in the future", issuer.idToken(with(["nbf": now + 600]), signedBy: OIDCKeys.rsa),
                    "ID token is not valid yet ('nbf' is in the future)"
                ),
                ("no exp", issuer.idToken(with([:], without: "exp"), signedBy: OIDCKeys.rsa), "ID token has no 'exp'"),
                ("no iat", issuer.idToken(with([:], without: "iat"), signedBy: OIDCKeys.rsa), "ID token has no 'iat'"),
                ("no sub", issuer.idToken(with([:], without: "sub"), signedBy: OIDCKeys.rsa), "ID token has no 'sub'"),
                (
                    "alg none",
                    OIDCIssuerStandIn.compact(
                        header: ["alg": "none", "kid": "rsa-1"], claims: with(["iss": issuer.issuer])
                    ) { _ in Data([0]) },
                    "ID token algorithm is not accepted; ID tokens must be signed with RS256 or ES256"
                ),
                (
                    "HS256 keyed with the public key",
                    OIDCIssuerStandIn.compact(
                        header: ["alg": "HS256", "kid": "rsa-1"], claims: with(["iss": issuer.issuer])
                    ) {
                        Data(HMAC<SHA256>.authenticationCode(for: $0, using: SymmetricKey(data: publicKeyBytes)))
                    }, "ID token algorithm is not accepted; ID tokens must be signed with RS256 or ES256"
                ),
                (
                    "RS256 claimed for the EC key", issuer.idToken(good, signedBy: OIDCKeys.rsa, keyID: "ec-1"),
                    "ID token algorithm does not match the issuer's key"
                ),
                (
                    "a stranger's key under a known kid",
                    issuer.idToken(good, signedBy: OIDCKeys.stranger, keyID: "rsa-1"),
                    "ID token signature does not verify with the issuer's key"
                ),
                (
                    "a stranger's key under an unknown kid", issuer.idToken(good, signedBy: OIDCKeys.stranger),
                    "ID token key id is not one of the issuer's keys"
                ),
                ("garbage", "!.garbage.z", "ID token is malformed: header is not base64url"),
                ("not JSON", "bm90IGpzb24.bm90IGpzb24.c2ln", "ID token is malformed: header is not"),
            ]
            for refused in cases {
                let response = try await setup.client.token("driver/v-1", session: refused.token)
                let message = try response.expectRefusal(.unauthorized, "UNAUTHENTICATED")
                #expect(message.hasPrefix(refused.message), "\(refused.what): \(message)")
                #expect(
                    !String(buffer: response.body).contains(refused.token), "\(refused.what): the token is never echoed"
                )
            }
            // The good token itself works, so the refusals were the rules', not the setup's.
            #expect(try await setup.client.token("driver/v-1", session: setup.idToken("uid-ann")).status == .ok)

            let unlinked = try await setup.client.token("driver/v-1", session: setup.idToken("uid-nobody"))
                .expectRefusal(.forbidden, "PERMISSION_DENIED")
            #expect(unlinked.contains("no account is linked to this identity"))

            let metrics = String(buffer: try await setup.client.send(.get, "/metrics").body)
            #expect(metrics.contains(#"fleetauth_id_token_refusals_total{rule="wrong_audience"} 2"#))
            #expect(metrics.contains(#"fleetauth_id_token_refusals_total{rule="unsupported_algorithm"} 2"#))
            #expect(metrics.contains(#"fleetauth_token_refusals_total{reason="unlinked_identity"} 1"#))
            #expect(metrics.contains(#"fleetauth_logins_total{method="oidc",result="success"} 1"#))
            #expect(metrics.contains(#"fleetauth_logins_total{method="oidc",result="failure"} \#(cases.count + 1)"#))
        }
    }

    @Test("deleting an account ends its ID tokens at once; an identity-only account cannot log in by password")
    func deletionAndPassword() async throws {
        try await OIDCSetup.run { setup in
            try await setup.link("ann", role: "driver", subject: "uid-ann", assigned: ["vehicles/v-1/driver"])
            let token = setup.idToken("uid-ann")
            #expect(try await setup.client.token("driver/v-1", session: token).status == .ok)

            let login = try await setup.client.send(
                .post, "/v1/sessions", json: #"{"username":"ann","password":"correct horse"}"#)
            #expect(try login.expectRefusal(.unauthorized, "UNAUTHENTICATED") == "wrong username or password")

            #expect(try await setup.client.admin(.delete, "/v1/admin/accounts/ann").status == .noContent)
            try await setup.client.token("driver/v-1", session: token).expectRefusal(.forbidden, "PERMISSION_DENIED")
            // The identity is free again: a new account may take it.
            try await setup.link("ann2", role: "driver", subject: "uid-ann", assigned: ["vehicles/v-1/driver"])
            #expect(try await setup.client.token("driver/v-1", session: token).status == .ok)
        }
    }

    @Test("no ID token, nor its signature, appears in any log line")
    func noTokenInLogs() async throws {
        let recorder = LogRecorder()
        try await OIDCSetup.run(logger: recorder.logger) { setup in
            try await setup.link("ann", role: "driver", subject: "uid-ann", assigned: ["vehicles/v-1/driver"])
            let good = setup.idToken("uid-ann")
            let forged = setup.issuer.idToken(setup.claims("uid-ann"), signedBy: OIDCKeys.stranger, keyID: "rsa-1")
            let unlinked = setup.idToken("uid-nobody")
            #expect(try await setup.client.token("driver/v-1", session: good).status == .ok)
            #expect(try await setup.client.token("driver/v-2", session: good).status == .forbidden)
            #expect(try await setup.client.token("driver/v-1", session: forged).status == .unauthorized)
            #expect(try await setup.client.token("driver/v-1", session: unlinked).status == .forbidden)
            let logged = recorder.text
            #expect(logged.contains("token refused"), "the refusals were logged")
            for token in [good, forged, unlinked] {
                for segment in token.split(separator: ".") {
                    #expect(!logged.contains(segment), "a segment of an ID token is in the log")
                }
            }
        }
    }
}
