import FleetTokens
import Foundation
import HummingbirdTesting
import TestSupport
import Testing

@testable import TokenServer

/// Verifies tokens the way an outside service would: with the keys from the served JWKS.
func verifier(from client: Client) async throws -> TokenVerifier {
    let response = try await client.send(.get, "/.well-known/jwks.json")
    let jwks = try JSONWebKeySet(json: Data(buffer: response.body))
    return TokenVerifier(trusting: try jwks.trustedAccounts(), now: { Date(timeIntervalSince1970: 1_800_000_100) })
}

extension TestResponse {
    /// Expects a 200 token answer and verifies its token with `verifier`.
    func verifiedToken(_ verifier: TokenVerifier, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> VerifiedToken
    {
        try #require(status == .ok, "\(String(buffer: body))", sourceLocation: sourceLocation)
        return try verifier.verify(try #require(try json()["token"] as? String, sourceLocation: sourceLocation))
    }
}

@Suite("Token flows on a live server")
struct TokenFlowTests {
    @Test(
        "a driver gets a token for their vehicle that the token core verifies, and nothing else",
        arguments: StoreBackend.allCases)
    func driver(backend: StoreBackend) async throws {
        try await TestServer.serve(backend) { client, _ in
            let session = try await client.enroll("ann", role: "driver", assigned: ["vehicles/v-17/driver"])

            let response = try await client.token("driver/v-17", session: session)
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            let body = try response.json()
            let token = try #require(body["token"] as? String)
            let verified = try await verifier(from: client).verify(token)
            #expect(verified.role == .driverSDKUser)
            #expect(verified.claims.authorization == AuthorizationClaims(vehicleID: "v-17"))
            #expect(verified.claims.audience == FleetEngineClaims.fleetEngineAudience)
            #expect(verified.claims.issuer == TestKeys.byRole[.driverSDKUser]?.clientEmail)
            #expect(body["issuedAt"] as? Int == 1_800_000_000)
            #expect(body["expiresAt"] as? Int == 1_800_001_800)
            #expect(body["expiresInSeconds"] as? Int == 1800)

            for other in [
                "driver/v-18", "driver/*", "driver/%2A", "driver/v%2C1", "driver/" + String(repeating: "v", count: 65),
            ] {
                try await client.token(other, session: session).expectRefusal(.forbidden, "PERMISSION_DENIED")
            }
            let wildcard = try await client.token("driver/*", session: session).expectRefusal(
                .forbidden, "PERMISSION_DENIED")
            #expect(wildcard.contains("\"*\""))
            let notMine = try await client.token("driver/v-18", session: session).expectRefusal(
                .forbidden, "PERMISSION_DENIED")
            #expect(notMine == "account \"ann\" is not assigned to vehicle \"v-18\"")
            // A driver is not a consumer, whatever the id.
            try await client.token("consumer/v-17", session: session).expectRefusal(.forbidden, "PERMISSION_DENIED")
            try await client.token("fleet-reader", session: session).expectRefusal(.forbidden, "PERMISSION_DENIED")
        }
    }

    @Test("a consumer gets a token for their trip only")
    func consumer() async throws {
        try await TestServer.serve { client, _ in
            let session = try await client.enroll("cat", role: "consumer", assigned: ["trips/t-1/consumer"])
            let verified = try await client.token("consumer/t-1", session: session).verifiedToken(
                try await verifier(from: client))
            #expect(verified.role == .consumerSDKUser)
            #expect(verified.claims.authorization == AuthorizationClaims(tripID: "t-1"))
            try await client.token("consumer/t-2", session: session).expectRefusal(.forbidden, "PERMISSION_DENIED")
            try await client.token("consumer/*", session: session).expectRefusal(.forbidden, "PERMISSION_DENIED")
            try await client.token("driver/t-1", session: session).expectRefusal(.forbidden, "PERMISSION_DENIED")
        }
    }

    @Test("delivery drivers, delivery consumers and fleet readers get their own kinds")
    func deliveryAndFleetReader() async throws {
        try await TestServer.serve { client, _ in
            try await client.createAccount("dee", role: "delivery-driver")
            try await client.createAccount("kim", role: "delivery-consumer")
            try await client.createAccount("fay", role: "fleet-reader")
            try await client.assign("delivery-vehicles/dv-1/driver", to: "dee")
            try await client.assign("tracking-ids/track-9/consumer", to: "kim")
            let verifier = try await verifier(from: client)
            let cases: [(user: String, path: String, role: FleetEngineRole, claims: AuthorizationClaims)] = [
                (
                    "dee", "delivery-driver/dv-1", .deliveryUntrustedDriver,
                    AuthorizationClaims(deliveryVehicleID: "dv-1")
                ),
                ("kim", "delivery-consumer/track-9", .deliveryConsumer, AuthorizationClaims(trackingID: "track-9")),
                ("fay", "fleet-reader", .deliveryFleetReader, TokenKind.fleetReader.authorizationClaims),
            ]
            for (user, path, role, claims) in cases {
                let session = try await client.logIn(user)
                let verified = try await client.token(path, session: session).verifiedToken(verifier)
                #expect(verified.role == role)
                #expect(verified.claims.authorization == claims)
            }
            let dee = try await client.logIn("dee")
            try await client.token("delivery-driver/dv-2", session: dee).expectRefusal(.forbidden, "PERMISSION_DENIED")
            try await client.token("delivery-consumer/track-9", session: dee).expectRefusal(
                .forbidden, "PERMISSION_DENIED")
        }
    }

    @Test("no valid session, no token: 401 before anything else")
    func unauthenticated() async throws {
        try await TestServer.serve { client, _ in
            try await client.createAccount("ann", role: "driver")
            try await client.assign("vehicles/v-1/driver", to: "ann")
            let missing = try await client.token("driver/v-1", session: nil).expectRefusal(
                .unauthorized, "UNAUTHENTICATED")
            #expect(missing.contains("Authorization: Bearer"))
            try await client.token("driver/v-1", session: "fas_not-a-session").expectRefusal(
                .unauthorized, "UNAUTHENTICATED")
            try await client.token("driver/*", session: "fas_not-a-session").expectRefusal(
                .unauthorized, "UNAUTHENTICATED")
            // The admin key is not a session.
            try await client.token("driver/v-1", session: client.adminKey).expectRefusal(
                .unauthorized, "UNAUTHENTICATED")
            let basic = try await client.http.execute(
                uri: "/v1/tokens/driver/v-1", method: .get, headers: [.authorization: "Basic YW5uOnB3"])
            try basic.expectRefusal(.unauthorized, "UNAUTHENTICATED")
        }
    }

    @Test("a session ends when it expires")
    func sessionExpiry() async throws {
        let clock = TestClock()
        try await TestServer.serve(options: TestServer.options(clock: clock)) { client, server in
            try await client.createAccount("ann", role: "driver")
            try await client.assign("vehicles/v-1/driver", to: "ann")
            let login = try await client.send(
                .post, "/v1/sessions", json: #"{"username":"ann","password":"correct horse"}"#)
            #expect(login.headers[.cacheControl] == "no-store")
            let body = try login.json()
            let session = try #require(body["sessionToken"] as? String)
            #expect(session.hasPrefix("fas_") && session.count >= 4 + 43)
            #expect(body["expiresAt"] as? Int == 1_800_000_000 + 12 * 3600)
            clock.advance(by: 12 * 3600 - 1)
            #expect(try await client.token("driver/v-1", session: session).status == .ok)
            clock.advance(by: 1)
            try await client.token("driver/v-1", session: session).expectRefusal(.unauthorized, "UNAUTHENTICATED")
            _ = server
        }
    }
}
