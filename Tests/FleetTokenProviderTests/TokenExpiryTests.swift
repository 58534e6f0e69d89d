import Foundation
import Testing

@testable import FleetTokenProvider

/// Where a fetched token's expiry comes from: its own `exp` claim, read only from a compact JWT
/// as RFC 7515 writes it (and Fleet Engine reads it), else what the response stated.
@Suite("A fetched token's expiry")
struct TokenExpiryTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// A token expiring in 60 s whose payload segment, base64url, needs padding to be base64.
    func token() -> (token: String, payload: Substring) {
        for serial in 0... {
            let token = TestJWT.make(
                issuedAt: now, expiresAt: now + 60, authorization: ["vehicleid": "v"], serial: serial)
            let payload = token.split(separator: ".")[1]
            if payload.count % 4 != 0 { return (token, payload) }
        }
        fatalError("unreachable")
    }

    @Test("the token's exp wins over a later stated lifetime")
    func expClaim() {
        let fetched = FetchedToken(token: token().token, expiresIn: .seconds(600))
        #expect(fetched.expiry(requestedAt: now, receivedAt: now).expiresAt == now + 60)
    }

    @Test("a payload that is padded base64, not base64url, is no JWT: the stated lifetime counts")
    func paddedPayload() {
        let (token, payload) = token()
        let padded = token.replacingOccurrences(
            of: payload, with: payload + String(repeating: "=", count: 4 - payload.count % 4))
        let fetched = FetchedToken(token: padded, expiresIn: .seconds(600))
        #expect(fetched.expiry(requestedAt: now, receivedAt: now).expiresAt == now + 600)
        #expect(FetchedToken(token: padded).expiry(requestedAt: now, receivedAt: now).expiresAt == nil)
    }
}
