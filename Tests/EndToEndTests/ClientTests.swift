import FleetAuthLocking
import FleetEngineClient
import FleetTokenProvider
import FleetTokens
import Foundation
import TestSupport
import Testing

/// The REST client against the real local Fleet Engine, with tokens from the real token server.
@Suite("Fleet Engine client")
struct ClientTests {
    @Test func driverAndConsumerCallsCarryTheirOwnTokens() async throws {
        let fleet = try await TestFleet.start()
        try await fleet.enroll(0..<2)
        let driver = try await fleet.app("driver-0").client
        let consumer = try await fleet.app("consumer-0").client

        let sent = VehicleLocation(
            location: LatLng(latitude: 52.5, longitude: 13.4), heading: 180, speed: 4.5, updateTime: fleet.clock.now)
        let stored = try await driver.updateLocation(sent, ofVehicle: "vehicle-0")
        #expect(stored.name == "providers/\(TestFleet.project)/vehicles/vehicle-0")
        #expect(stored.lastLocation?.location == sent.location && stored.lastLocation?.heading == 180)
        #expect(
            stored.lastLocation?.serverTime == fleet.clock.now, "Fleet Engine stamps the time it stored the location")
        #expect(try await driver.vehicle("vehicle-0").lastLocation?.location == sent.location)

        let moved = try await driver.updateStatus(
            .enrouteToPickup, ofTrip: "trip-0", as: AuthorizationContext(vehicleID: "vehicle-0"))
        #expect(moved.tripStatus == .enrouteToPickup)
        let followed = try await consumer.trip("trip-0")
        #expect(followed.tripStatus == .enrouteToPickup && followed.vehicleId == "vehicle-0")

        // The token server will not hand driver 0 a token for vehicle 1 …
        do {
            _ = try await driver.updateLocation(sent, ofVehicle: "vehicle-1")
            Issue.record("driver 0 moved vehicle 1")
        } catch FleetEngineError.tokenUnavailable(let error) {
            #expect(error as? TokenProviderError == .forbidden)
        }
        // … and Fleet Engine refuses driver 0's token for vehicle 1, saying which rule.
        let vehicle0Driver = try await fleet.app("driver-0", template: "vehicle-0")
        do {
            _ = try await vehicle0Driver.client.vehicle("vehicle-1")
            Issue.record("driver 0 read vehicle 1")
        } catch let error as FleetEngineError {
            guard case .refused(403, "PERMISSION_DENIED", let message, _) = error else { throw error }
            #expect(message.contains("vehicle"))
            #expect(!error.description.contains("eyJ"), "no token in the error")
        }
        await fleet.stop()
    }

    /// A session over the token server's limit gets 429 with `Retry-After`: the provider's
    /// fetcher waits what the server asked (here on the fleet's clock) and gets its token.
    @Test func theFetcherWaitsOutTheSessionLimitAsRetryAfterSays() async throws {
        let fleet = try await TestFleet.start(tokenRequestsPerMinute: 3)
        try await fleet.enroll(0..<1)
        let session = try await fleet.logIn("driver-0")
        let waits = Locked<[Duration]>([])
        let fetcher = HTTPTokenFetcher(
            urlTemplate: try TokenURLTemplate(await fleet.tokenURL("driver/{vehicleId}")),
            retryPolicy: RetryPolicy(
                maxAttempts: 2,
                sleep: { wait in
                    waits.withLock { $0.append(wait) }
                    fleet.clock.advance(by: wait)
                }),
            authorizeRequest: { $0.setValue("Bearer \(session)", forHTTPHeaderField: "Authorization") })
        let context = AuthorizationContext(vehicleID: "vehicle-0")
        for _ in 0..<3 { _ = try await fetcher.fetchToken(for: context) }
        #expect(waits.withLock { $0 }.isEmpty)
        let fourth = try await fetcher.fetchToken(for: context)
        #expect(!fourth.token.isEmpty)
        #expect(waits.withLock { $0 } == [.seconds(20)], "one wait, as long as Retry-After said (60 s / 3)")
        await fleet.stop()
    }

    /// The device clock is a minute behind the servers': the provider thinks its token fresh,
    /// Fleet Engine finds it expired and answers 401; the client invalidates it, fetches a new
    /// one and succeeds, once.
    @Test func aRefusedTokenIsInvalidatedAndTheCallTriedOnceMore() async throws {
        let fleet = try await TestFleet.start()
        try await fleet.enroll(0..<1)
        let driver = try await fleet.app("driver-0", clock: ManualTokenClock(now: fleet.clock.now))
        let location = VehicleLocation(location: LatLng(latitude: 52.5, longitude: 13.4))
        _ = try await driver.client.updateLocation(location, ofVehicle: "vehicle-0")
        fleet.clock.advance(by: .seconds(60))
        _ = try await driver.client.updateLocation(location, ofVehicle: "vehicle-0")
        #expect(driver.log.current.invalidated == 1)
        #expect(driver.fetcher.current.started == 2)
        await fleet.stop()
    }

    /// A token Fleet Engine refuses whatever happens: asked for twice, invalidated once, then
    /// the 401 is thrown; never a loop.
    @Test func aTokenRefusedTwiceIsThrownAfterOneRetry() async throws {
        let fleet = try await TestFleet.start()
        try await fleet.enroll(0..<1)
        let driverKey = TestKeys.driver
        let expired = try TokenMinter(key: driverKey, now: { fleet.clock.now - 3600 }).mint(
            .driver(vehicleID: "vehicle-0"), lifetime: .seconds(60))
        let tokens = CountingTokens(expired.token)
        let client = await fleet.client(tokens: tokens)
        do {
            _ = try await client.vehicle("vehicle-0")
            Issue.record("an expired token was accepted")
        } catch let error as FleetEngineError {
            #expect(error.httpStatus == 401)
        }
        #expect(tokens.handedOut == 2 && tokens.invalidated == 1)
        await fleet.stop()
    }
}
