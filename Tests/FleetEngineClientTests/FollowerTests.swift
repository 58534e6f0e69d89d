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
        let consumerLog = EventLog(), driverLog = EventLog()
        let (consumerTokens, consumerFetches) = try await fleet.provider("consumer", session: try await fleet.logIn("consumer-0"), log: consumerLog)
        let (driverTokens, _) = try await fleet.provider("driver", session: try await fleet.logIn("driver-0"), log: driverLog)
        let driver = await fleet.client(tokens: driverTokens)
        let plan: [Int: Trip.Status] = [3: .enrouteToPickup, 12: .enrouteToDropoff, 25: .complete]

        var seen: [Trip.Status] = []
        var readings = 0
        for try await trip in TripFollower(tripID: "trip-0", client: await fleet.client(tokens: consumerTokens), interval: .milliseconds(20)) {
            readings += 1
            if let status = trip.tripStatus, seen.last != status { seen.append(status) }
            fleet.clock.advance(by: .seconds(2))
            if let next = plan[readings] {
                _ = try await driver.updateStatus(next, ofTrip: "trip-0", as: AuthorizationContext(vehicleID: "vehicle-0"))
            }
        }
        #expect(seen == [.new, .enrouteToPickup, .enrouteToDropoff, .complete])
        #expect(readings == 26, "the sequence ends with the first COMPLETE reading")
        #expect(consumerLog.current.refreshedEarly >= 1 && consumerFetches.current.started >= 2, "the token was refreshed on the way")
        #expect(consumerLog.current.invalidated == 0 && consumerFetches.current.failed == 0)
        await fleet.stop()
    }

    /// The device clock lags a minute: Fleet Engine refuses the cached token once, the
    /// follower's client fetches a fresh one and the reading succeeds.
    @Test func aFollowerGetsAFreshTokenAfterA401() async throws {
        let fleet = try await TestFleet.start()
        try await fleet.enroll(0..<1)
        let log = EventLog()
        let deviceClock = ManualTokenClock(now: fleet.clock.now)
        let (tokens, fetcher) = try await fleet.provider("consumer", session: try await fleet.logIn("consumer-0"), log: log, clock: deviceClock)
        var readings = TripFollower(tripID: "trip-0", client: await fleet.client(tokens: tokens), interval: .milliseconds(1)).makeAsyncIterator()
        #expect(try await readings.next()?.tripStatus == .new)
        fleet.clock.advance(by: .seconds(60))
        #expect(try await readings.next()?.tripStatus == .new)
        #expect(log.current.invalidated == 1 && fetcher.current.started == 2)
        await fleet.stop()
    }

    /// Consumer 0 asks to follow trip 1: the token server refuses (403) and the sequence
    /// ends with that error at once, without retrying.
    @Test func followingSomeoneElsesTripEndsWithTheRefusal() async throws {
        let fleet = try await TestFleet.start()
        try await fleet.enroll(0..<2)
        let log = EventLog()
        let (tokens, fetcher) = try await fleet.provider("consumer", session: try await fleet.logIn("consumer-0"), log: log)
        var readings = TripFollower(tripID: "trip-1", client: await fleet.client(tokens: tokens)).makeAsyncIterator()
        do {
            _ = try await readings.next()
            Issue.record("followed someone else's trip")
        } catch FleetEngineError.tokenUnavailable(let error) {
            #expect(error as? TokenProviderError == .forbidden)
        }
        #expect(fetcher.current.started == 1)
        await fleet.stop()
    }
}
