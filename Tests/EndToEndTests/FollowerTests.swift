import FleetAuthLocking
import FleetEngineClient
import FleetTokenProvider
import Testing

/// ``TripFollower`` on the real servers.
@Suite("trip follower")
struct FollowerTests {
    /// The consumer reads every 20 ms while the fleet's clock moves 2 s per reading: its
    /// 30-second token is refreshed along the way. The driver moves the trip on with its own
    /// token; the follower sees each status and ends after `COMPLETE`.
    @Test func aConsumerFollowsItsTripThroughATokenRefreshToTheEnd() async throws {
        let fleet = try await TestFleet.start(tokenLifetime: .seconds(30))
        try await fleet.enroll(0..<1)
        let consumer = try await fleet.app("consumer-0")
        let driver = try await fleet.app("driver-0").client
        let plan: [Int: Trip.Status] = [3: .enrouteToPickup, 12: .enrouteToDropoff, 25: .complete]

        var seen: [Trip.Status] = []
        var readings = 0
        for try await trip in TripFollower(tripID: "trip-0", client: consumer.client, interval: .milliseconds(20)) {
            readings += 1
            if let status = trip.tripStatus, seen.last != status { seen.append(status) }
            fleet.clock.advance(by: .seconds(2))
            if let next = plan[readings] {
                _ = try await driver.updateStatus(
                    next, ofTrip: "trip-0", as: AuthorizationContext(vehicleID: "vehicle-0"))
            }
        }
        #expect(seen == [.new, .enrouteToPickup, .enrouteToDropoff, .complete])
        #expect(readings == 26, "the sequence ends with the first COMPLETE reading")
        #expect(
            consumer.log.current.refreshedEarly >= 1 && consumer.fetcher.current.started >= 2,
            "the token was refreshed on the way")
        #expect(consumer.log.current.invalidated == 0 && consumer.fetcher.current.failed == 0)
        await fleet.stop()
    }

    /// The device clock lags a minute: Fleet Engine refuses the cached token once, the
    /// follower's client fetches a fresh one and the reading succeeds.
    @Test func aFollowerGetsAFreshTokenAfterA401() async throws {
        let fleet = try await TestFleet.start()
        try await fleet.enroll(0..<1)
        let consumer = try await fleet.app("consumer-0", clock: ManualTokenClock(now: fleet.clock.now))
        var readings = TripFollower(tripID: "trip-0", client: consumer.client, interval: .milliseconds(1))
            .makeAsyncIterator()
        #expect(try await readings.next()?.tripStatus == .new)
        fleet.clock.advance(by: .seconds(60))
        #expect(try await readings.next()?.tripStatus == .new)
        #expect(consumer.log.current.invalidated == 1 && consumer.fetcher.current.started == 2)
        await fleet.stop()
    }

    /// Two 503s, the second asking `Retry-After: 1`: the reading is retried (waiting what was
    /// asked) and succeeds; past the attempts allowed, the sequence ends with the 503.
    @Test func serverErrorsAreRetriedUntilTheAttemptsRunOut() async throws {
        let fleet = try await TestFleet.start()
        try await fleet.enroll(0..<1)
        let transport = GatedTransport()
        let consumer = try await fleet.app("consumer-0", transport: transport)
        let waits = Locked<[Duration]>([])
        let policy = RetryPolicy(
            maxAttempts: 3, initialBackoff: .milliseconds(10), maxBackoff: .milliseconds(10), random: { 1 }
        ) { delay in
            waits.withLock { $0.append(delay) }
        }
        var readings = TripFollower(
            tripID: "trip-0", client: consumer.client, interval: .milliseconds(1), retryPolicy: policy
        ).makeAsyncIterator()
        transport.failNext(1)
        #expect(try await readings.next()?.tripStatus == .new)
        transport.failNext(1, retryAfter: 1)
        #expect(try await readings.next()?.tripStatus == .new)
        #expect(waits.withLock { $0 } == [.milliseconds(10), .seconds(1)])
        #expect(transport.current.bodies.count == 4)

        transport.failNext(3)
        do {
            _ = try await readings.next()
            Issue.record("the third 503 in a row did not end the sequence")
        } catch let error as FleetEngineError {
            #expect(error.httpStatus == 503)
        }
        #expect(transport.current.bodies.count == 7)
        await fleet.stop()
    }

    /// Consumer 0 asks to follow trip 1: the token server refuses (403) and the sequence
    /// ends with that error at once, without retrying.
    @Test func followingSomeoneElsesTripEndsWithTheRefusal() async throws {
        let fleet = try await TestFleet.start()
        try await fleet.enroll(0..<2)
        let consumer = try await fleet.app("consumer-0")
        var readings = TripFollower(tripID: "trip-1", client: consumer.client).makeAsyncIterator()
        do {
            _ = try await readings.next()
            Issue.record("followed someone else's trip")
        } catch FleetEngineError.tokenUnavailable(let error) {
            #expect(error as? TokenProviderError == .forbidden)
        }
        #expect(consumer.fetcher.current.started == 1)
        await fleet.stop()
    }
}
