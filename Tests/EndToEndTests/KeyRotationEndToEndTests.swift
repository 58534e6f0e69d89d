import FleetTokens
import TestSupport
import Testing

/// Signing keys rotated while a fleet reports, on real servers with the fleet's clock moved one
/// second per step.
@Suite("key rotation, end to end")
struct KeyRotationEndToEndTests {
    /// Five drivers on 30-second tokens report every step for 115 steps; the driver key is
    /// rotated at steps 10, 20 and 30. Each replaced key stays published 30 s (its tokens'
    /// lifetime) and 60 s (the overlap) past its replacement, so the first retires near step
    /// 100, while the drivers carry on: no report refused, no token request failed. A load test:
    /// it runs alone, with the fault tests (`scripts/test-faults.sh`).
    @Test(.faultTest) func threeRotationsUnderLoadRefuseNothing() async throws {
        let fleet = try await TestFleet.start(tokenLifetime: .seconds(30))
        let drivers = try await fleet.drivers(5)
        let ring = await fleet.keyRing
        var keyIDs = [try #require(ring.signingKeys.key(for: .driverSDKUser)?.privateKeyID)]
        for (start, end) in [(0, 10), (10, 20), (20, 30), (30, 115)] {
            try await fleet.drive(drivers, steps: start..<end)
            guard end < 115 else { break }
            try await ring.rotate(.driverSDKUser)
            keyIDs.append(try #require(ring.signingKeys.key(for: .driverSDKUser)?.privateKeyID))
        }
        #expect(Set(keyIDs).count == 4, "three rotations made three new keys")
        for driver in drivers {
            let log = driver.log.current
            #expect(
                log.accepted.count == 115 && log.invalidated == 0 && log.dropped.isEmpty && log.stopped.isEmpty,
                "driver \(driver.index): \(log)")
            #expect(driver.fetcher.current.failed == 0, "driver \(driver.index): \(driver.fetcher.current)")
        }
        // The keys replaced at steps 10 and 20 have retired (30 s + 60 s after); the one
        // replaced at step 30 is still published; the newest signs.
        try await waitUntil("the first two replaced keys retire", timeout: .seconds(10)) {
            ring.statuses.filter { keyIDs.prefix(2).contains($0.kid) }.allSatisfy { $0.state == "retired" }
        }
        #expect(ring.statuses.first { $0.kid == keyIDs[2] }?.state == "published")
        #expect(ring.statuses.first { $0.kid == keyIDs[3] }?.state == "signing")
        #expect(try await fleet.storedSteps(of: drivers) == Array(repeating: 114, count: drivers.count))
        await fleet.stop()
    }
}
