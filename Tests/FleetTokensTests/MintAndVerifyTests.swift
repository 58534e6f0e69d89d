import FleetAuthCodecs
import Foundation
import TestSupport
import Testing

@testable import FleetTokens

@Suite("Minting: every kind round-trips through the verifier with exact Fleet Engine claims")
struct MintAndVerifyTests {
    let clock = TestClock()

    static let clientKinds: [(TokenKind, FleetEngineRole)] = [
        (.driver(vehicleID: "vehicle-1"), .driverSDKUser),
        (.consumer(tripID: "trip-1"), .consumerSDKUser),
        (.trustedDeliveryDriver(deliveryVehicleID: "dv-1", taskID: "task-1"), .deliveryTrustedDriver),
        (.untrustedDeliveryDriver(deliveryVehicleID: "dv-2"), .deliveryUntrustedDriver),
        (.deliveryConsumer(trackingID: "track-1"), .deliveryConsumer),
        (.deliveryConsumerTask(taskID: "task-9"), .deliveryConsumer),
    ]

    static let serverKinds: [TokenKind] = [
        .server, .fleetReader, .deliveryServer, .custom(AuthorizationClaims(taskIDs: ["t1", "t2"])),
    ]

    @Test("every kind verifies and keeps its claims", arguments: clientKinds.map(\.0) + serverKinds)
    func roundTrip(kind: TokenKind) throws {
        let minter = try TokenMinter(key: TestKeys.server, now: clock.function)
        let verifier = TokenVerifier.forTests(clock: clock)
        let minted = try minter.mint(kind)
        let verified = try verifier.verify(minted.token)
        #expect(verified.claims == minted.claims)
        #expect(verified.authorization == kind.authorizationClaims)
        #expect(verified.role == .serviceSuperUser)
        #expect(verified.keyID == TestKeys.server.privateKeyID)
        #expect(minted.keyID == verified.keyID, "the minted token names the key that signed it")
    }

    @Test("header and standard claims are exactly Fleet Engine's")
    func exactFormat() throws {
        let minter = try TokenMinter(key: TestKeys.driver, now: clock.function)
        let minted = try minter.mint(.driver(vehicleID: "vehicle-7"))
        let parts = minted.token.split(separator: ".")
        #expect(parts.count == 3)
        let header = try #require(
            try JSONSerialization.jsonObject(with: Base64URL.decode(parts[0])!) as? [String: String])
        #expect(header == ["alg": "RS256", "typ": "JWT", "kid": TestKeys.driver.privateKeyID])
        let payload = try #require(
            try JSONSerialization.jsonObject(with: Base64URL.decode(parts[1])!) as? [String: Any])
        #expect(Set(payload.keys) == ["iss", "sub", "aud", "iat", "exp", "authorization"])
        #expect(payload["iss"] as? String == TestKeys.driver.clientEmail)
        #expect(payload["sub"] as? String == TestKeys.driver.clientEmail)
        #expect(payload["aud"] as? String == "https://fleetengine.googleapis.com/")
        #expect((payload["iat"] as? NSNumber)?.int64Value == clock.epochSeconds)
        #expect((payload["exp"] as? NSNumber)?.int64Value == clock.epochSeconds + 3600)
        #expect(payload["authorization"] as? [String: String] == ["vehicleid": "vehicle-7"])
        // The signature is 256 bytes of RSA-2048.
        #expect(Base64URL.decode(parts[2])?.count == 256)
    }

    @Test("a shorter lifetime is honoured; more than an hour or under a second is refused")
    func lifetimes() throws {
        let minter = try TokenMinter(key: TestKeys.driver, now: clock.function)
        #expect(try minter.mint(.driver(vehicleID: "v"), lifetime: .seconds(30)).claims.lifetime == 30)
        #expect(throws: TokenMintError.invalidLifetime(seconds: 3601)) {
            try minter.mint(.driver(vehicleID: "v"), lifetime: .seconds(3601))
        }
        #expect(throws: TokenMintError.invalidLifetime(seconds: 0)) {
            try minter.mint(.driver(vehicleID: "v"), lifetime: .zero)
        }
        #expect(throws: TokenMintError.invalidLifetime(seconds: 7200)) {
            try TokenMinter(key: TestKeys.driver, defaultLifetime: .seconds(7200))
        }
    }

    @Test(
        "client kinds never carry a wildcard or a malformed id",
        arguments: [
            TokenKind.driver(vehicleID: "*"), .consumer(tripID: "*"), .deliveryConsumer(trackingID: "*"),
            .untrustedDeliveryDriver(deliveryVehicleID: "*"),
            .trustedDeliveryDriver(deliveryVehicleID: "d", taskID: "*"),
            .driver(vehicleID: ""), .driver(vehicleID: "a/b"), .consumer(tripID: String(repeating: "x", count: 65)),
            .custom(AuthorizationClaims()),
        ])
    func refusesBadClientClaims(kind: TokenKind) throws {
        let minter = try TokenMinter(key: TestKeys.driver, now: clock.function)
        #expect(throws: TokenMintError.self) { try minter.mint(kind) }
    }

    @Test("server-side kinds carry wildcards")
    func serverKindsUseWildcards() {
        #expect(TokenKind.server.authorizationClaims == AuthorizationClaims(vehicleID: "*", tripID: "*"))
        #expect(TokenKind.fleetReader.authorizationClaims.namedIDs.allSatisfy { $0.id == "*" })
        #expect(
            TokenKind.deliveryServer.authorizationClaims
                == AuthorizationClaims(deliveryVehicleID: "*", taskID: "*", trackingID: "*"))
        for (kind, _) in Self.clientKinds { #expect(!kind.isServerSide && !kind.authorizationClaims.containsWildcard) }
    }

    @Test("the verifier reports the signer's role, not the claims'")
    func roleComesFromSigner() throws {
        let verifier = TokenVerifier.forTests(clock: clock)
        let byConsumer = try TokenMinter(key: TestKeys.consumer, now: clock.function).mint(.driver(vehicleID: "v1"))
        #expect(try verifier.verify(byConsumer.token).role == .consumerSDKUser)
    }
}
