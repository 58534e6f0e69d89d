import Crypto
import FleetAuthCodecs
import Foundation
import TestSupport
import Testing

@testable import FleetTokens

@Suite("Verifier: one test per refusal reason")
struct RefusalTests {
    let clock = TestClock()
    var verifier: TokenVerifier { TokenVerifier.forTests(clock: clock) }
    var now: Int64 { clock.epochSeconds }
    var goodHeader: [String: Any] { Forge.header(for: TestKeys.driver) }
    var goodPayload: [String: Any] {
        Forge.driverPayload(for: TestKeys.driver, now: now, lifetime: 3600, vehicleID: "vehicle-1")
    }

    func refused(_ token: String) -> TokenRefusal? {
        refusal { () throws(TokenRefusal) in try verifier.verify(token) }
    }

    func forged(header: [String: Any]? = nil, payload: [String: Any]? = nil, key: ServiceAccountKey = TestKeys.driver)
        -> String
    {
        Forge.token(header: header ?? goodHeader, payload: payload ?? goodPayload, signedBy: key)
    }

    @Test func acceptsTheHonestForgery() throws {
        #expect(refused(forged()) == nil)
    }

    @Test func missing() {
        #expect(refused("") == .missing)
    }

    @Test func oversized() {
        let big = forged(payload: goodPayload.merging(["pad": String(repeating: "x", count: 9000)]) { $1 })
        #expect(refused(big) == .oversized(bytes: big.utf8.count))
    }

    @Test(
        "malformed: wrong segment counts, bad base64, non-JSON",
        arguments: [
            "garbage", "a.b", "..", "a.b.c.d", "eyJhbGciOiJSUzI1NiJ9.eyJ9.%%%", "eyJhbGciOiJSUzI1NiJ9=.eyJ9.c2ln",
            "bm90IGpzb24.bm90IGpzb24.c2ln", "WzFd.e30.c2ln",
        ])
    func malformed(token: String) {
        guard case .malformed = refused(token) else {
            Issue.record("\(token) was not refused as malformed: \(String(describing: refused(token)))")
            return
        }
    }

    @Test("a refusal quotes no token, not even one of NUL characters")
    func refusalOfNULCharactersQuotesNoToken() {
        let token = "e" + String(repeating: "\u{0}", count: 95)
        let refusal = refused(token)
        #expect(refusal != nil)
        // Not Foundation's contains(_:), which on Linux stops reading the token at its first NUL.
        #expect(refusal?.description.firstRange(of: token) == nil)
    }

    @Test func payloadThatIsNotAnObject() {
        let input = Forge.segment(goodHeader) + "." + Base64URL.encode(Data("[1,2]".utf8))
        let token = input + "." + Forge.rs256(input, with: TestKeys.driver)
        guard case .malformed = refused(token) else { Issue.record("array payload accepted or misclassified"); return }
    }

    @Test("alg other than RS256", arguments: ["none", "HS256", "RS512", "ES256"])
    func unsupportedAlgorithm(alg: String) {
        var header = goodHeader
        header["alg"] = alg
        #expect(refused(forged(header: header)) == .unsupportedAlgorithm(alg))
    }

    @Test func algNoneWithEmptySignature() {
        let token = Forge.segment(["alg": "none", "typ": "JWT"]) + "." + Forge.segment(goodPayload) + "."
        #expect(refused(token) != nil)
    }

    @Test func hs256SignedWithThePublicKeyAsSecret() {
        var header = goodHeader
        header["alg"] = "HS256"
        let input = Forge.segment(header) + "." + Forge.segment(goodPayload)
        let secret = SymmetricKey(data: Data(TestKeys.driver.publicKey.pemRepresentation.utf8))
        let mac = HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: secret)
        #expect(refused(input + "." + Base64URL.encode(Data(mac))) == .unsupportedAlgorithm("HS256"))
    }

    @Test func unknownKeyID() {
        var header = goodHeader
        header["kid"] = "0123456789abcdef"
        #expect(refused(forged(header: header)) == .unknownKeyID("0123456789abcdef"))
    }

    /// Google's IAM signBlob signers (java-fleetengine-auth's ImpersonatedSigner) send no
    /// `kid`; Fleet Engine tries the account's keys, and so does the verifier.
    @Test("a token without kid verifies with one of its account's keys")
    func missingKeyIDTriesTheAccountsKeys() throws {
        var header = goodHeader
        header["kid"] = nil
        let verifier = TokenVerifier.forTests(clock: clock)
        verifier.trust([
            TrustedServiceAccount(
                email: TestKeys.driver.clientEmail, role: .driverSDKUser,
                publicKeys: [
                    "a-rotated-out-key": TestKeys.consumer.publicKey,
                    TestKeys.driver.privateKeyID: TestKeys.driver.publicKey,
                ])
        ])
        let verified = try verifier.verify(forged(header: header))
        #expect(verified.keyID == TestKeys.driver.privateKeyID)
    }

    @Test("a token without kid signed by a stranger's key is a bad signature")
    func missingKeyIDStrangersKey() {
        var header = goodHeader
        header["kid"] = nil
        #expect(refused(forged(header: header, key: TestKeys.stranger)) == .badSignature)
    }

    @Test("a trusted account's kid on another account's token")
    func keyOfAnotherAccount() {
        // Consumer-signed token claiming the driver's kid: the kid is not the consumer's.
        var payload = goodPayload
        payload["iss"] = TestKeys.consumer.clientEmail
        payload["sub"] = TestKeys.consumer.clientEmail
        #expect(
            refused(forged(payload: payload, key: TestKeys.consumer)) == .unknownKeyID(TestKeys.driver.privateKeyID))
    }

    @Test func unknownIssuer() {
        let token = Forge.token(
            header: Forge.header(for: TestKeys.stranger),
            payload: Forge.driverPayload(for: TestKeys.stranger, now: now, lifetime: 3600, vehicleID: "vehicle-1"),
            signedBy: TestKeys.stranger
        )
        #expect(refused(token) == .unknownIssuer(TestKeys.stranger.clientEmail))
    }

    @Test func issuerSubjectMismatch() {
        var payload = goodPayload
        payload["sub"] = "someone@else.iam.gserviceaccount.com"
        #expect(refused(forged(payload: payload)) == .issuerSubjectMismatch)
    }

    @Test("right kid, another key's signature")
    func badSignature() {
        #expect(refused(forged(key: TestKeys.stranger)) == .badSignature)
    }

    @Test("a flipped payload byte breaks the signature")
    func tamperedPayload() throws {
        let token = forged()
        let parts = token.split(separator: ".").map(String.init)
        var payload = goodPayload
        payload["authorization"] = ["vehicleid": "someone-elses-vehicle"]
        let tampered = parts[0] + "." + Forge.segment(payload) + "." + parts[2]
        #expect(refused(tampered) == .badSignature)
    }

    @Test("wrong aud", arguments: ["https://example.com/", "https://fleetengine.googleapis.com"])
    func wrongAudience(aud: String) {
        var payload = goodPayload
        payload["aud"] = aud
        #expect(refused(forged(payload: payload)) == .wrongAudience([aud]))
    }

    @Test func audienceAsArrayIncludingFleetEngine() {
        var payload = goodPayload
        payload["aud"] = ["https://example.com/", FleetEngineClaims.fleetEngineAudience]
        #expect(refused(forged(payload: payload)) == nil)
    }

    @Test func expired() {
        var payload = goodPayload
        payload["iat"] = now - 3700
        payload["exp"] = now - 100
        #expect(refused(forged(payload: payload)) == .expired(secondsAgo: 100))
    }

    @Test func expiredAtExactlyExp() {
        var payload = goodPayload
        payload["exp"] = now
        payload["iat"] = now - 60
        #expect(refused(forged(payload: payload)) == .expired(secondsAgo: 0))
    }

    @Test func clockSkewIsTolerated() {
        var payload = goodPayload
        payload["iat"] = now - 60
        payload["exp"] = now - 5
        let lenient = TokenVerifier.forTests(clock: clock, skew: .seconds(10))
        #expect(refusal { () throws(TokenRefusal) in try lenient.verify(forged(payload: payload)) } == nil)
    }

    @Test func issuedTooFarInTheFuture() {
        var payload = goodPayload
        payload["iat"] = now + 601
        payload["exp"] = now + 1200
        #expect(refused(forged(payload: payload)) == .issuedInFuture(secondsAhead: 601))
        payload["iat"] = now + 599
        #expect(refused(forged(payload: payload)) == nil)
    }

    @Test func lifetimeOverAnHour() {
        var payload = goodPayload
        payload["exp"] = now + 3601
        #expect(refused(forged(payload: payload)) == .invalidLifetime(seconds: 3601))
    }

    @Test func expBeforeIat() {
        var payload = goodPayload
        payload["exp"] = now - 1
        #expect(refused(forged(payload: payload)) == .invalidLifetime(seconds: -1))
    }

    @Test(
        "wrongly typed or missing claims",
        arguments: [
            ("vehicleid", "42"), ("vehicleid", "[\"v1\", \"v2\"]"), ("iat", "\"1800000000\""),
            ("exp", "\"soon\""), ("exp", "1e300"), ("iss", "null"), ("authorization", "\"vehicle-1\""),
        ])
    func malformedClaims(field: String, jsonValue: String) throws {
        let value = try JSONSerialization.jsonObject(with: Data(jsonValue.utf8), options: .fragmentsAllowed)
        var payload = goodPayload
        if field == "vehicleid" {
            payload["authorization"] = ["vehicleid": value]
        } else {
            payload[field] = value
        }
        let reason = refused(forged(payload: payload))
        guard case .malformedClaims(let problem) = reason else {
            Issue.record("\(field) = \(jsonValue) not refused as malformed claims: \(String(describing: reason))")
            return
        }
        #expect(problem.contains(field))
    }

    @Test("a fractional NumericDate is read as whole seconds")
    func fractionalDates() throws {
        var payload = goodPayload
        payload["exp"] = Double(now) + 60.75
        #expect(try verifier.verify(forged(payload: payload)).claims.expiresAt == now + 60)
    }

    @Test func missingExp() {
        var payload = goodPayload
        payload["exp"] = nil
        #expect(refused(forged(payload: payload)) == .malformedClaims("'exp' is missing"))
    }

    @Test("refusal messages never contain the token")
    func messagesAreSecretFree() {
        let token = forged(key: TestKeys.stranger)
        let signature = String(token.split(separator: ".")[2])
        let reason = refused(token)
        #expect(reason != nil)
        #expect(!(reason?.description.contains(signature) ?? true))
    }
}
