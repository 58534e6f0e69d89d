import FleetTokens
import Foundation
import TestSupport
import Testing

/// The JWKS URL an engine trusts failing after the engine has its keys: down, answering
/// garbage, or silent. The keys at hand keep working, an unknown key is refused once the
/// fetch gives up, and no request hangs.
@Suite("JWKS URL faults")
struct JWKSFaultTests {
    /// A token of the trusted server account naming a key id the JWKS never published: the
    /// engine waits for its next fetch before refusing it.
    private static var unknownKeyIDToken: String {
        var header = Forge.header(for: TestKeys.server)
        header["kid"] = "made-up-key-id"
        return Forge.token(
            header: header, payload: Forge.driverPayload(for: TestKeys.server), signedBy: TestKeys.server)
    }

    @Test(
        "the JWKS URL down, answering garbage or silent: cached keys keep working; unknown keys are refused, then known again once it recovers",
        arguments: [JWKSRefreshTests.Publisher.Answer.unavailable, .garbage, .silence])
    func cachedKeysOutliveTheURL(answer: JWKSRefreshTests.Publisher.Answer) async throws {
        try await JWKSRefreshTests.withJWKSEngine(interval: .milliseconds(200)) { client, publisher in
            #expect(
                try await JWKSRefreshTests.getVehicle(client, token: Tokens.server).status == 404,
                "the key fetched at start works")
            publisher.answer.withLock { $0 = answer }
            let fetchesBefore = publisher.fetches.load(ordering: .relaxed)
            // Past the interval since the start's fetch, so that the next unknown key id fetches at once.
            try await Task.sleep(for: .milliseconds(250))

            // An unknown key id makes the engine fetch; the fetch fails (or, when silent, gives
            // up after the engine's timeout) and the token is refused, without hanging.
            async let unknown = JWKSRefreshTests.getVehicle(client, token: Self.unknownKeyIDToken)
            // Meanwhile, and after, the cached key is served without waiting for the fetch.
            for _ in 0..<3 {
                let cached = try await JWKSRefreshTests.getVehicle(client, token: Tokens.server)
                #expect(cached.status == 404, "the cached key stops working while the JWKS URL fails: \(cached)")
            }
            let refused = try await unknown
            #expect(refused.status == 401 && refused.errorMessage.contains("key id"), "\(refused)")
            #expect(publisher.fetches.load(ordering: .relaxed) > fetchesBefore, "the unknown key caused a fetch")
            #expect(
                try await JWKSRefreshTests.getVehicle(client, token: Tokens.server).status == 404,
                "the failed fetch dropped the cached key")

            // The URL recovers with a driver's key added: a token of that new account makes the
            // engine fetch again, and it is trusted. (A fetch that went out while the URL was
            // silent may still be waiting for its timeout: until it gives up, the new account's
            // token is refused, so it is asked again until a fetch after the recovery answers.)
            try publisher.publish([(TestKeys.server, .serviceSuperUser), (TestKeys.driver, .driverSDKUser)])
            publisher.answer.withLock { $0 = .document }
            try await waitUntil("the key published after recovery is trusted", timeout: .seconds(15)) {
                try await JWKSRefreshTests.getVehicle(client, token: Tokens.driver("none")).status == 404
            }
        }
    }
}
