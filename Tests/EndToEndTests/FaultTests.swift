import FleetEngineClient
import FleetTokenProvider
import TestSupport
import Testing

/// The fleet keeps reporting through outages of either server, on real servers with the
/// fleet's clock moved one second per step.
@Suite("faults, end to end")
struct FaultTests {
    /// 30-second tokens fetched at step 0 are handed out freely until step 15, then with a
    /// background refresh until step 22. The token server is down for steps 10 to 19.
    @Test func reportersCarryOnWithCachedTokensWhileTheTokenServerIsDownAndRecoverWithoutAStorm() async throws {
        let fleet = try await TestFleet.start(tokenLifetime: .seconds(30))
        let drivers = try await fleet.drivers(10)
        try await fleet.drive(drivers, steps: 0..<10)
        await fleet.stopTokenServer()
        try await fleet.drive(drivers, steps: 10..<20)

        for driver in drivers {
            let fetches = driver.fetcher.current
            #expect(
                driver.log.current.accepted.count == 20, "driver \(driver.index) kept reporting on its cached token")
            #expect(fetches.succeeded == 1, "driver \(driver.index)")
            // At most one refresh per report while the server is down (steps 15 to 19), never more.
            #expect((1...5).contains(fetches.failed), "driver \(driver.index): \(fetches)")
        }

        try await fleet.startTokenServer()
        let beforeRestart = drivers.map(\.fetcher.current.started)
        try await fleet.drive(drivers, steps: 20..<30)
        for (driver, before) in zip(drivers, beforeRestart) {
            let log = driver.log.current
            #expect(
                driver.fetcher.current.started - before == 1,
                "driver \(driver.index) fetched exactly once after the restart")
            #expect(driver.fetcher.current.succeeded == 2, "driver \(driver.index)")
            #expect(
                log.accepted.count == 30 && log.invalidated == 0 && log.dropped.isEmpty && log.stopped.isEmpty,
                "driver \(driver.index)")
        }
        #expect(try await fleet.storedSteps(of: drivers) == Array(repeating: 29, count: drivers.count))
        await fleet.stop()
    }

    /// Step 10 is reported and the Fleet Engine shut down at once, with requests in flight; step
    /// 11 is reported while it is down. What it saved is each vehicle's last acknowledged
    /// location (or the one in flight, whose answer was lost); after the restart nothing is
    /// lost and every vehicle ends at its last report.
    @Test func theLastAcknowledgedLocationOfEveryVehicleSurvivesAFleetEngineRestart() async throws {
        let fleet = try await TestFleet.start()
        let drivers = try await fleet.drivers(10)
        try await fleet.drive(drivers, steps: 0..<10)

        for driver in drivers { await driver.reporter.report(driver.location(step: 10)) }
        await fleet.stopFleetEngine()
        let acknowledged = drivers.map { TestDriver.step(of: $0.log.current.accepted.last) }
        for driver in drivers { await driver.reporter.report(driver.location(step: 11)) }
        try await waitUntil("every driver is retrying or has step 10 acknowledged") {
            drivers.allSatisfy {
                !$0.log.current.retries.isEmpty || TestDriver.step(of: $0.log.current.accepted.last) == 10
            }
        }
        let saved = try await fleet.savedSteps(of: drivers)
        for (index, (saved, acknowledged)) in zip(saved, acknowledged).enumerated() {
            #expect(
                saved == acknowledged || (saved == 10 && acknowledged == 9),
                "vehicle-\(index): saved \(saved as Any), acknowledged \(acknowledged as Any)")
        }
        // Step 11 meets the outage: its reports are retried until the engine is back.
        try await waitUntil("every driver is retrying step 11") {
            drivers.allSatisfy { !$0.log.current.retries.isEmpty }
        }

        try await fleet.startFleetEngine()
        try await waitUntil("every driver's step 11 is acknowledged") {
            drivers.allSatisfy { TestDriver.step(of: $0.log.current.accepted.last) == 11 }
        }
        try await fleet.drive(drivers, steps: 12..<20)
        for driver in drivers {
            let log = driver.log.current
            let accounted = Set((log.accepted + log.superseded).compactMap { TestDriver.step(of: $0) })
            #expect(
                accounted == Set(0..<20),
                "driver \(driver.index): every report was acknowledged or replaced by a newer one")
            #expect(log.dropped.isEmpty && log.stopped.isEmpty && log.invalidated == 0, "driver \(driver.index)")
        }
        #expect(try await fleet.storedSteps(of: drivers) == Array(repeating: 19, count: drivers.count))
        await fleet.stop()
    }
}
