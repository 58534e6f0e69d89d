import FleetEngineClient
import FleetTokenProvider
import Testing

/// Drivers report through whole token lives on real servers, a minute of the fleet's clock
/// played in a few seconds.
@Suite("token life, end to end")
struct TokenLifeTests {
    /// 5-second tokens for a minute: with 1-second reports a token is handed out while more
    /// than half of it is left (the provider's refresh window for short tokens), so each token
    /// serves ⌈5 / 2⌉ = 3 reports and the fewest fetches a driver can make is ⌈60 / 3⌉ = 20.
    @Test func fiveSecondTokensForAMinuteNeedNoRefusalAndTheFewestFetches() async throws {
        let fleet = try await TestFleet.start(tokenLifetime: .seconds(5))
        let drivers = try await fleet.drivers(8)
        try await fleet.drive(drivers, steps: 0..<60)

        for driver in drivers {
            let log = driver.log.current
            #expect(log.accepted.count == 60, "driver \(driver.index)")
            #expect(log.invalidated == 0, "driver \(driver.index) was refused a token by Fleet Engine")
            #expect(log.stopped.isEmpty && log.dropped.isEmpty && log.retries.isEmpty, "driver \(driver.index)")
            #expect(driver.fetcher.current.started == 20, "driver \(driver.index)")
            // Only the first fetch kept a report waiting; every later one ran in the background.
            #expect(log.fetched == 1 && log.refreshedEarly == 19, "driver \(driver.index)")
        }
        #expect(try await fleet.storedSteps(of: drivers) == Array(repeating: 59, count: drivers.count))
        await fleet.stop()
    }
}
