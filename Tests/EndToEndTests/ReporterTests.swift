import FleetAuthLocking
import FleetEngineClient
import FleetTokenProvider
import Foundation
import TestSupport
import Testing

/// ``VehicleReporter`` on the real servers, with faults injected in front of Fleet Engine.
@Suite("vehicle reporter")
struct ReporterTests {
    /// One driver whose requests go through a ``GatedTransport``.
    private static func gatedDriver(
        in fleet: TestFleet,
        retryPolicy: RetryPolicy = quickRetries
    ) async throws -> (VehicleReporter, GatedTransport, EventLog) {
        try await fleet.enroll(0..<1)
        let transport = GatedTransport()
        let driver = try await fleet.app("driver-0", transport: transport)
        let reporter = VehicleReporter(vehicleID: "vehicle-0", client: driver.client, retryPolicy: retryPolicy)
        driver.log.follow(reporter)
        return (reporter, transport, driver.log)
    }

    private static func location(_ step: Int) -> VehicleLocation {
        VehicleLocation(location: LatLng(latitude: 52 + Double(step) / 1000, longitude: 13))
    }

    @Test func oneRequestIsInFlightAndTheNewestUnsentLocationSupersedesTheOthers() async throws {
        let fleet = try await TestFleet.start()
        let (reporter, transport, log) = try await Self.gatedDriver(in: fleet)
        transport.hold()
        await reporter.report(Self.location(1))
        try await waitUntil("the first request is in flight") { transport.current.inFlight == 1 }
        for step in 2...4 { await reporter.report(Self.location(step)) }
        try await waitUntil("2 and 3 are superseded") { log.current.superseded.count == 2 }
        #expect(transport.current.inFlight == 1)
        transport.release()
        await reporter.finish()
        await log.caughtUp()

        #expect(log.current.accepted.map { TestDriver.step(of: $0) } == [1, 4])
        #expect(log.current.superseded.map { TestDriver.step(of: $0) } == [2, 3])
        #expect(transport.current.bodies.count == 2 && transport.current.mostInFlight == 1)
        #expect(TestDriver.step(of: try await fleet.operatorClient.vehicle("vehicle-0").lastLocation) == 4)
        await fleet.stop()
    }

    /// 503s and a stopped Fleet Engine are retried with jittered, capped exponential backoff
    /// (here the jitter is pinned at one half, the cap starts at 20 ms and stops at 80 ms).
    @Test func failuresAreRetriedWithCappedBackoffAndTheNewestLocationIsSent() async throws {
        let fleet = try await TestFleet.start()
        let waits = Locked<[Duration]>([])
        // Attempts enough to outlast a restart of Fleet Engine however slow the machine (what
        // running out does is aLocationIsDroppedWhenItsAttemptsRunOut's to test).
        let policy = RetryPolicy(
            maxAttempts: 100_000, initialBackoff: .milliseconds(20), maxBackoff: .milliseconds(80), random: { 0.5 }
        ) { delay in
            waits.withLock { $0.append(delay) }
            try await Task.sleep(for: delay)
        }
        let (reporter, transport, log) = try await Self.gatedDriver(in: fleet, retryPolicy: policy)

        transport.failNext(4)
        await reporter.report(Self.location(1))
        try await waitUntil("1 is accepted after four 503s") { log.current.accepted.count == 1 }
        #expect(waits.withLock { $0 } == [.milliseconds(10), .milliseconds(20), .milliseconds(40), .milliseconds(40)])

        await fleet.stopFleetEngine()
        await reporter.report(Self.location(2))
        try await waitUntil("2 was retried") { log.current.retries.count >= 6 }
        await reporter.report(Self.location(3))
        try await fleet.startFleetEngine()
        await reporter.finish()
        await log.caughtUp()
        #expect(log.current.accepted.map { TestDriver.step(of: $0) } == [1, 3])
        #expect(log.current.superseded.map { TestDriver.step(of: $0) } == [2])
        #expect(log.current.retries.allSatisfy { $0 <= .milliseconds(40) })
        #expect(log.current.dropped.isEmpty && log.current.stopped.isEmpty)
        await fleet.stop()
    }

    /// A 503 with `Retry-After: 2`: the reporter waits the 2 s asked for instead of its 10 ms
    /// backoff (the policy's sleep is recorded, not slept).
    @Test func aRetryAfterFromFleetEngineSetsTheWait() async throws {
        let fleet = try await TestFleet.start()
        let waits = Locked<[Duration]>([])
        let policy = RetryPolicy(
            maxAttempts: 5, initialBackoff: .milliseconds(10), maxBackoff: .milliseconds(80), random: { 0.5 }
        ) { delay in
            waits.withLock { $0.append(delay) }
        }
        let (reporter, transport, log) = try await Self.gatedDriver(in: fleet, retryPolicy: policy)
        transport.failNext(1, status: 503, retryAfter: 2)
        await reporter.report(Self.location(1))
        await reporter.finish()
        await log.caughtUp()
        #expect(waits.withLock { $0 }.first == .seconds(2))
        #expect(log.current.retries.first == .seconds(2), "the event tells the wait")
        #expect(log.current.accepted.map { TestDriver.step(of: $0) } == [1])
        await fleet.stop()
    }

    /// Fleet Engine refuses the token, and the fresh one too: one invalidation, one more
    /// fetch, then the reporter stops with the 401 instead of fetching in a loop.
    @Test func aSecondUnauthorizedStopsTheReporter() async throws {
        let fleet = try await TestFleet.start()
        let (reporter, transport, log) = try await Self.gatedDriver(in: fleet)
        transport.failNext(2, status: 401)
        await reporter.report(Self.location(1))
        try await waitUntil("the reporter stops") { !log.current.stopped.isEmpty }
        await reporter.finish()
        await log.caughtUp()
        #expect(await reporter.stopReason?.httpStatus == 401)
        #expect(log.current.invalidated == 1 && log.current.fetched == 2)
        #expect(transport.current.bodies.count == 2 && log.current.accepted.isEmpty && log.current.retries.isEmpty)
        await fleet.stop()
    }

    /// Three 503s with three attempts allowed: that location is dropped; the next one goes.
    @Test func aLocationIsDroppedWhenItsAttemptsRunOut() async throws {
        let fleet = try await TestFleet.start()
        let policy = RetryPolicy(maxAttempts: 3, initialBackoff: .milliseconds(5), maxBackoff: .milliseconds(10))
        let (reporter, transport, log) = try await Self.gatedDriver(in: fleet, retryPolicy: policy)
        transport.failNext(3)
        await reporter.report(Self.location(1))
        try await waitUntil("1 is dropped") { log.current.dropped.count == 1 }
        await reporter.report(Self.location(2))
        await reporter.finish()
        await log.caughtUp()
        #expect(log.current.dropped.map { TestDriver.step(of: $0) } == [1] && log.current.retries.count == 2)
        #expect(log.current.accepted.map { TestDriver.step(of: $0) } == [2] && log.current.stopped.isEmpty)
        await fleet.stop()
    }

    @Test func aLocationFleetEngineRefusesIsDroppedAndReportingGoesOn() async throws {
        let fleet = try await TestFleet.start()
        let (reporter, _, log) = try await Self.gatedDriver(in: fleet)
        var badHeading = Self.location(1)
        badHeading.heading = 400
        await reporter.report(badHeading)
        try await waitUntil("the bad heading is dropped") { log.current.dropped.count == 1 }
        await reporter.report(VehicleLocation(location: LatLng(latitude: .nan, longitude: 13)))
        try await waitUntil("the unwritable location is dropped") { log.current.dropped.count == 2 }
        await reporter.report(Self.location(3))
        await reporter.finish()
        await log.caughtUp()
        #expect(log.current.accepted.map { TestDriver.step(of: $0) } == [3])
        #expect(log.current.retries.isEmpty && log.current.stopped.isEmpty)
        await fleet.stop()
    }

    /// Driver 1's token used for vehicle 0: Fleet Engine answers 403, the reporter stops, says
    /// why, and sends nothing more.
    @Test func aPermissionDeniedStopsTheReporter() async throws {
        let fleet = try await TestFleet.start()
        try await fleet.enroll(0..<2)
        let transport = GatedTransport()
        let driver1 = try await fleet.app("driver-1", template: "vehicle-1", transport: transport)
        let reporter = VehicleReporter(vehicleID: "vehicle-0", client: driver1.client, retryPolicy: quickRetries)
        let log = driver1.log
        log.follow(reporter)
        await reporter.report(Self.location(1))
        try await waitUntil("the reporter stops") { !log.current.stopped.isEmpty }
        await reporter.report(Self.location(2))
        await reporter.finish()
        await log.caughtUp()

        let reason = try #require(await reporter.stopReason)
        #expect(reason.httpStatus == 403)
        #expect(log.current.stopped.count == 1 && log.current.accepted.isEmpty && log.current.retries.isEmpty)
        #expect(
            transport.current.bodies.count == 1 && driver1.fetcher.current.started == 1,
            "nothing was sent after the stop")
        #expect(try await fleet.operatorClient.vehicle("vehicle-0").lastLocation == nil)
        await fleet.stop()
    }
}
