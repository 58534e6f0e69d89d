import FleetAuthLocking
import FleetEngineClient
import FleetEngineEmulator
import FleetTokenProvider
import FleetTokens
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An app's provider on an injected clock and the engine on a moved one (`/emulator/v1/clock`),
/// as a team tests its app against the released engine, whose clock it cannot inject: an hour
/// of a driver's tokens played at once, and no token handed out after the engine's `exp`.
@Suite("a provider on a test clock, the engine on a moved one")
struct MovedClockTests {
    /// Driver tokens minted on the provider's clock, each one kept, as a token server would
    /// hand them out.
    final class MintingFetcher: TokenFetcher {
        let minter: TokenMinter
        private let minted = Locked<[String]>([])

        init(clock: ManualTokenClock) throws {
            minter = try TokenMinter(key: TestKeys.driver, defaultLifetime: .seconds(3600), now: { clock.now })
        }

        /// Every token handed out, oldest first.
        var tokens: [String] { minted.withLock { $0 } }

        func fetchToken(for context: AuthorizationContext) async throws -> FetchedToken {
            let token = try minter.mint(.driver(vehicleID: context.vehicleID ?? "")).token
            minted.withLock { $0.append(token) }
            return FetchedToken(token: token)
        }
    }

    @Test("tokens are reused, refreshed before the engine's hour ends, and the first is refused after it")
    func anHourOfTokensOnBothClocks() async throws {
        let engine = try await FleetEngineEmulator.start(
            projectID: TestKeys.project, trusting: TestKeys.trustedAccounts)
        do {
            // Both clocks start together: the provider's where the engine's is, and the engine's frozen.
            try await engine.clock.freeze()
            let clock = ManualTokenClock(now: try await engine.clock.now())
            let fetcher = try MintingFetcher(clock: clock)
            let provider = CachingTokenProvider(fetcher: fetcher, clock: clock)
            let app = FleetEngineClient(baseURL: engine.baseURL, providerID: TestKeys.project, tokens: provider)
            let backend = FleetEngineClient(
                baseURL: engine.baseURL, providerID: TestKeys.project,
                tokens: try ServerTokens(key: TestKeys.server, clock: clock))
            _ = try await backend.createVehicle(
                Vehicle(lastLocation: VehicleLocation(location: LatLng(latitude: 52.5, longitude: 13.4))), id: "moved-1"
            )

            func move(by seconds: TimeInterval) async throws {
                clock.advance(by: .seconds(seconds))
                try await engine.clock.advance(by: seconds)
            }
            func report(_ latitude: Double) async throws {
                _ = try await app.updateLocation(
                    VehicleLocation(location: LatLng(latitude: latitude, longitude: 13.4)), ofVehicle: "moved-1")
            }

            try await report(52.51)
            // 50 minutes on: the first token still has 10 of its 60 minutes, and serves.
            try await move(by: 3000)
            try await report(52.52)
            #expect(fetcher.tokens.count == 1)
            // 58 minutes on: within the provider's last 5 minutes it refreshes in the background.
            try await move(by: 480)
            try await report(52.53)
            try await waitUntil("the early refresh is done") { fetcher.tokens.count == 2 }
            // 63 minutes on: the first token is past its hour on the engine's clock; the app, on
            // the same time, hands out only the second.
            try await move(by: 300)
            try await report(52.54)
            #expect(fetcher.tokens.count == 2)
            let first = try #require(fetcher.tokens.first)
            var read = URLRequest(
                url: engine.baseURL.appendingPathComponent("v1/providers/\(TestKeys.project)/vehicles/moved-1"))
            read.setValue("Bearer \(first)", forHTTPHeaderField: "Authorization")
            let (body, response) = try await URLSession.shared.data(for: read)
            #expect(
                (response as? HTTPURLResponse)?.statusCode == 401
                    && String(decoding: body, as: UTF8.self).contains("expired"))

            let calls = try await engine.calls(method: "UpdateVehicle", resource: "moved-1")
            #expect(calls.map(\.status) == ["OK", "OK", "OK", "OK"], "the engine refused none of the app's reports")
        } catch {
            await engine.stop()
            throw error
        }
        await engine.stop()
    }
}
