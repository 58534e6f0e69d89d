import Foundation
import TestSupport
import Testing

@testable import FleetTokens

@Suite("JWKS export and import")
struct JSONWebKeySetTests {
    let clock = TestClock()

    @Test("exported public keys verify tokens after import, with their roles")
    func roundTrip() throws {
        let set = try JSONWebKeySet(publishing: [
            (TestKeys.driver, .driverSDKUser), (TestKeys.consumer, .consumerSDKUser),
        ])
        let imported = try JSONWebKeySet(json: set.jsonRepresentation()).trustedAccounts()
        #expect(imported.map(\.email) == [TestKeys.consumer.clientEmail, TestKeys.driver.clientEmail])
        let verifier = TokenVerifier(trusting: imported, now: clock.function)
        let driverToken = try TokenMinter(key: TestKeys.driver, now: clock.function).mint(.driver(vehicleID: "v1"))
            .token
        let consumerToken = try TokenMinter(key: TestKeys.consumer, now: clock.function).mint(.consumer(tripID: "t1"))
            .token
        #expect(try verifier.verify(driverToken).role == .driverSDKUser)
        #expect(try verifier.verify(consumerToken).role == .consumerSDKUser)
    }

    @Test("the document holds public parts only")
    func publicOnly() throws {
        let json = try JSONWebKeySet(publishing: [(TestKeys.driver, .driverSDKUser)]).jsonRepresentation()
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: [[String: String]]])
        let key = try #require(object["keys"]?.first)
        #expect(Set(key.keys) == ["kty", "alg", "use", "kid", "n", "e", "email", "role"])
        #expect(key["kty"] == "RSA" && key["alg"] == "RS256" && key["use"] == "sig" && key["e"] == "AQAB")
        let pem = TestKeys.driver.privateKey.pkcs8PEMRepresentation.split(separator: "\n")[1]
        #expect(!String(decoding: json, as: UTF8.self).contains(pem))
    }

    @Test("a Google-style JWKS (no email, no role) imports with a given account and role")
    func googleStyle() throws {
        var set = try JSONWebKeySet(publishing: [(TestKeys.server, .serviceSuperUser)])
        set.keys[0].email = nil
        set.keys[0].role = nil
        #expect(throws: JSONWebKeySetError.self) { try set.trustedAccounts() }
        let accounts = try set.trustedAccounts(email: "robot@p.iam.gserviceaccount.com", role: .viewer)
        #expect(accounts.first?.email == "robot@p.iam.gserviceaccount.com")
        #expect(accounts.first?.role == .viewer)
    }

    @Test(
        "bad documents are clear errors",
        arguments: [
            "", "{}", "{\"keys\": 3}", "{\"keys\": []}",
            "{\"keys\": [{\"kty\":\"RSA\",\"kid\":\"k\",\"n\":\"AQAB\",\"e\":\"AQAB\",\"email\":\"a@b\",\"role\":\"driver\"}]}",
        ])
    func malformed(json: String) {
        #expect(throws: JSONWebKeySetError.self) { try JSONWebKeySet(json: Data(json.utf8)).trustedAccounts() }
    }
}
