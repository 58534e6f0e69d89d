import Foundation
import TestSupport
import Testing

@testable import FleetTokens

@Suite("Inspection without verification")
struct InspectionTests {
    let clock = TestClock()

    @Test("a good driver token has no problems and decodes its claims")
    func goodToken() throws {
        let minted = try TokenMinter(key: TestKeys.driver, now: clock.function).mint(.driver(vehicleID: "v1"))
        let inspection = try TokenInspection(token: minted.token, now: clock.now)
        #expect(inspection.problems.isEmpty)
        #expect(inspection.claims == minted.claims)
        #expect(inspection.header.keyID == TestKeys.driver.privateKeyID)
        #expect(inspection.payloadJSON.contains("\"vehicleid\" : \"v1\""))
    }

    @Test("every Fleet Engine objection is listed at once")
    func listsProblems() throws {
        let now = clock.epochSeconds
        let token = Forge.token(
            header: ["alg": "HS256", "typ": "JWT"],
            payload: [
                "iss": "a@b", "sub": "c@d", "aud": "https://example.com/", "iat": now - 8000, "exp": now - 100,
                "authorization": ["vehicleid": "*"],
            ],
            signedBy: TestKeys.driver
        )
        let problems = try TokenInspection(token: token, now: clock.now).problems.joined(separator: "\n")
        for expected in ["RS256", "'iss' and 'sub' differ", "audience", "lifetime", "expired", "wildcard"] {
            #expect(problems.contains(expected), "missing \(expected) in \(problems)")
        }
    }

    @Test func notAToken() {
        #expect(throws: TokenRefusal.self) { try TokenInspection(token: "hello") }
        #expect(throws: TokenRefusal.missing) { try TokenInspection(token: "  ") }
    }
}
