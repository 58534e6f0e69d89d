import Foundation
import TestSupport
import Testing

@testable import FleetTokens

@Suite("Verified-token cache")
struct VerifiedTokenCacheTests {
    let clock = TestClock()

    @Test("a cached answer equals a fresh verification")
    func sameAnswer() throws {
        let verifier = TokenVerifier.forTests(clock: clock)
        let token = try TokenMinter(key: TestKeys.driver, now: clock.function).mint(.driver(vehicleID: "v1")).token
        let first = try verifier.verify(token)
        let cached = try verifier.verify(token)
        let fresh = try verifier.verifyWithoutCache(token)
        #expect(first == cached)
        #expect(cached == fresh)
    }

    @Test("a cached token is forgotten at its exp and then refused")
    func forgetsAtExpiry() throws {
        let verifier = TokenVerifier.forTests(clock: clock)
        let minted = try TokenMinter(key: TestKeys.driver, now: clock.function).mint(
            .driver(vehicleID: "v1"), lifetime: .seconds(60))
        _ = try verifier.verify(minted.token)
        clock.advance(by: 59)
        #expect(try verifier.verify(minted.token).claims == minted.claims)
        clock.advance(by: 1)
        #expect(refusal { () throws(TokenRefusal) in try verifier.verify(minted.token) } == .expired(secondsAgo: 0))
    }

    @Test("refusals are not cached: a token refused for its time is refused again")
    func refusalsAreNotRemembered() throws {
        let verifier = TokenVerifier.forTests(clock: clock)
        let minted = try TokenMinter(key: TestKeys.driver, now: { Date(timeIntervalSince1970: 1_800_000_000 + 700) })
            .mint(.driver(vehicleID: "v1"))
        #expect(
            refusal { () throws(TokenRefusal) in try verifier.verify(minted.token) }
                == .issuedInFuture(secondsAhead: 700))
        clock.advance(by: 100)
        #expect(refusal { () throws(TokenRefusal) in try verifier.verify(minted.token) } == nil)
    }

    @Test("a copy of a cached token with one byte changed is verified afresh and refused")
    func tamperedCopyIsNotAnsweredFromTheCache() throws {
        let verifier = TokenVerifier.forTests(clock: clock)
        let token = try TokenMinter(key: TestKeys.driver, now: clock.function).mint(.driver(vehicleID: "v1")).token
        _ = try verifier.verify(token)
        var bytes = Array(token.utf8)
        bytes[bytes.count - 2] = bytes[bytes.count - 2] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let tampered = String(decoding: bytes, as: UTF8.self)
        #expect(refusal { () throws(TokenRefusal) in try verifier.verify(tampered) } == .badSignature)
        #expect(
            try verifier.verify(token).claims.authorization.vehicleID == "v1", "the genuine token is still remembered")
    }

    @Test("the cache stays within its capacity")
    func bounded() throws {
        let cache = VerifiedTokenCache(capacity: 8)
        let verified = try TokenVerifier.forTests(clock: clock).verify(
            try TokenMinter(key: TestKeys.driver, now: clock.function).mint(.driver(vehicleID: "v1")).token
        )
        for index in 0..<100 {
            cache.insert("token-\(index)", verified: verified, now: clock.epochSeconds)
            #expect(cache.count <= 8)
        }
        #expect(cache.lookup("token-99", now: clock.epochSeconds) == verified)
    }

    @Test("changing the trusted keys forgets remembered tokens")
    func trustChangeClears() throws {
        let verifier = TokenVerifier.forTests(clock: clock)
        let token = try TokenMinter(key: TestKeys.driver, now: clock.function).mint(.driver(vehicleID: "v1")).token
        _ = try verifier.verify(token)
        // The driver account now only has the stranger's key: the old token must fail.
        verifier.trust([
            TrustedServiceAccount(
                email: TestKeys.driver.clientEmail, role: .viewer,
                publicKeys: [TestKeys.stranger.privateKeyID: TestKeys.stranger.publicKey])
        ])
        #expect(
            refusal { () throws(TokenRefusal) in try verifier.verify(token) }
                == .unknownKeyID(TestKeys.driver.privateKeyID))
    }
}
