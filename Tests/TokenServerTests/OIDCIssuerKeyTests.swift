import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import TokenServer

/// How the token server gets and keeps an issuer's keys: rotation, Cache-Control, the issuer
/// down, and floods of made-up key ids.
@Suite("OpenID Connect issuer keys")
struct OIDCIssuerKeyTests {
    @Test("a key rotated in at the issuer is fetched for its new kid; the retired key stops working")
    func rotation() async throws {
        try await OIDCSetup.run(keys: [OIDCKeys.rsa]) { setup in
            try await setup.link("ann", role: "driver", subject: "uid-ann", assigned: ["vehicles/v-1/driver"])
            let old = setup.idToken("uid-ann", key: OIDCKeys.rsa)
            #expect(try await setup.client.token("driver/v-1", session: old).status == .ok)
            #expect(setup.issuer.jwksFetches == 1)

            setup.issuer.publish([OIDCKeys.rotated])
            setup.clock.advance(by: 11)
            let new = setup.idToken("uid-ann", key: OIDCKeys.rotated)
            #expect(try await setup.client.token("driver/v-1", session: new).status == .ok)
            #expect(setup.issuer.jwksFetches == 2, "the unknown kid fetched the keys again")
            let retired = try await setup.client.token("driver/v-1", session: old).expectRefusal(
                .unauthorized, "UNAUTHENTICATED")
            #expect(retired == "ID token key id is not one of the issuer's keys")
            #expect(setup.issuer.jwksFetches == 2, "within the interval the retired kid costs no fetch")
        }
    }

    @Test("keys are kept for the JWKS's max-age, then fetched again")
    func cacheControl() async throws {
        try await OIDCSetup.run { setup in
            setup.issuer.setCacheControl("public, max-age=120, must-revalidate")
            try await setup.link("ann", role: "driver", subject: "uid-ann", assigned: ["vehicles/v-1/driver"])
            let token = setup.idToken("uid-ann")
            #expect(try await setup.client.token("driver/v-1", session: token).status == .ok)
            setup.clock.advance(by: 100)
            #expect(try await setup.client.token("driver/v-1", session: token).status == .ok)
            #expect(setup.issuer.jwksFetches == 1, "fresh for 120 s")
            setup.clock.advance(by: 30)
            #expect(try await setup.client.token("driver/v-1", session: token).status == .ok)
            #expect(setup.issuer.jwksFetches == 2, "stale after 120 s")
        }
    }

    @Test("while the issuer is down, cached keys keep working; a key it cannot fetch is a 503")
    func issuerDown() async throws {
        try await OIDCSetup.run { setup in
            try await setup.link("ann", role: "driver", subject: "uid-ann", assigned: ["vehicles/v-1/driver"])
            let token = setup.idToken("uid-ann")
            #expect(try await setup.client.token("driver/v-1", session: token).status == .ok)

            setup.issuer.setDown(true)
            setup.clock.advance(by: 2 * 3600)
            let fresh = setup.idToken("uid-ann")
            #expect(
                try await setup.client.token("driver/v-1", session: fresh).status == .ok, "the stale key still verifies"
            )
            #expect(setup.issuer.jwksFetches == 2, "the stale keys were fetched for again, in vain")

            setup.clock.advance(by: 11)
            let rotated = setup.idToken("uid-ann", key: OIDCKeys.rotated)
            let response = try await setup.client.token("driver/v-1", session: rotated)
            let message = try response.expectRefusal(.serviceUnavailable, "UNAVAILABLE")
            #expect(
                message == "the keys of ID token issuer \(setup.issuer.issuer) cannot be fetched now; try again later")
            #expect(response.headers[.retryAfter] == "10")

            setup.issuer.setDown(false)
            setup.issuer.publish([OIDCKeys.rsa, OIDCKeys.rotated])
            setup.clock.advance(by: 11)
            #expect(
                try await setup.client.token("driver/v-1", session: rotated).status == .ok,
                "back up: the new key is fetched")
        }
    }

    @Test("an issuer that never answered gives 503, not a hang")
    func neverReachable() async throws {
        try await OIDCSetup.run { setup in
            setup.issuer.setDown(true)
            try await setup.link("ann", role: "driver", subject: "uid-ann", assigned: ["vehicles/v-1/driver"])
            let start = ContinuousClock.now
            try await setup.client.token("driver/v-1", session: setup.idToken("uid-ann")).expectRefusal(
                .serviceUnavailable, "UNAVAILABLE")
            // The issuer answers 500 at once: far less than the 30 s a hung fetch would take.
            #expect(ContinuousClock.now - start < .seconds(15))
            let metrics = String(buffer: try await setup.client.send(.get, "/metrics").body)
            #expect(metrics.contains(#"fleetauth_token_refusals_total{reason="issuer_unavailable"} 1"#))
        }
    }

    @Test("a flood of unknown kids costs at most one JWKS fetch per interval")
    func unknownKeyIDFlood() async throws {
        try await OIDCSetup.run { setup in
            try await setup.link("ann", role: "driver", subject: "uid-ann", assigned: ["vehicles/v-1/driver"])
            let claims = setup.claims("uid-ann")
            let client = setup.client
            let issuer = setup.issuer
            func flood(_ count: Int) async throws -> [HTTPResponse.Status] {
                try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                    for index in 0..<count {
                        group.addTask {
                            let token = issuer.idToken(
                                claims, signedBy: OIDCKeys.stranger, keyID: "forged-\(index)-\(UUID().uuidString)")
                            return try await client.token("driver/v-1", session: token).status
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
            #expect(try await flood(100).allSatisfy { $0 == .unauthorized })
            #expect(issuer.jwksFetches == 1)
            setup.clock.advance(by: 5)
            #expect(try await flood(50).allSatisfy { $0 == .unauthorized })
            #expect(issuer.jwksFetches == 1, "within 10 s of the last fetch")
            setup.clock.advance(by: 6)
            #expect(try await flood(50).allSatisfy { $0 == .unauthorized })
            #expect(issuer.jwksFetches == 2, "one more after the interval")
            // The real key still works throughout.
            #expect(try await client.token("driver/v-1", session: setup.idToken("uid-ann")).status == .ok)
            #expect(issuer.jwksFetches == 2)
        }
    }
}
