import CommandSupport
import FleetEngineClient
import FleetTokenProvider
import FleetTokens
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A driver app in this process, with the library's defaults, and `fleetauth serve` in a
/// network namespace across an impaired link (``ImpairedLink``): 300 ms of delay each way,
/// then 10 % loss each way, then a 20 s partition, then a healthy link again. The servers
/// issue 20 s tokens, so the partition outlasts the app's token.
@Suite("bad networks between the app and the servers", .serialized, .faultTest, ImpairedLink.required)
struct BadNetworkTests {
    static let tokenLifetime = 20
    /// How often the driver reports a new location.
    static let reportInterval = Duration.milliseconds(250)
    /// The reporter's default policy: the longest it waits between two attempts.
    static let retryInterval = RetryPolicy.locationReporting.maxBackoff

    @Test func aDriverAppRidesOutDelayLossAndAPartition() async throws {
        let link = try await ImpairedLink.open()
        defer { link.close() }
        let servers = try await ServersBehindLink.start(on: link, tokenLifetime: Self.tokenLifetime)
        defer { servers.stop() }
        let app = try await DriverApp.start(against: servers, vehicleID: "vehicle-1")

        let driving = Task { await app.drive(every: Self.reportInterval) }
        defer { driving.cancel() }
        var phases: [Phase] = []
        func play(_ impairment: ImpairedLink.Impairment, for duration: Duration) async throws {
            try await link.impair(impairment)
            let before = app.snapshot
            try await Task.sleep(for: duration)
            phases.append(Phase(impairment: impairment, before: before, after: app.snapshot))
        }
        try await play(.healed, for: .seconds(5))
        try await play(.delay(milliseconds: 300), for: .seconds(15))
        try await link.impair(.healed)
        try await play(.loss(percent: 10), for: .seconds(15))
        try await play(.partition, for: .seconds(20))

        try await link.impair(.healed)
        let healed = ContinuousClock.now, acceptedBeforeHealing = app.log.current.accepted.count
        try await waitUntil("the app is back after the partition", timeout: .seconds(60)) {
            app.log.current.accepted.count > acceptedBeforeHealing
        }
        let recovery = ContinuousClock.now - healed
        try await play(.healed, for: .seconds(10))
        driving.cancel()
        await app.reporter.finish()
        await app.log.caughtUp()

        let log = app.log.current, fetches = app.fetcher.current
        for phase in phases { print("bad network, \(phase)") }
        print(
            "bad network: back \(recovery) after the partition; \(fetches.started) fetches (\(fetches.failed) failed), \(log.accepted.count) locations accepted, \(log.retries.count) retries"
        )

        // No token handed out after its expiry; none refused by the engine as expired.
        let handOuts = app.tokens.current
        let late = handOuts.filter { handOut in handOut.expiresAt.map { $0 <= handOut.at } ?? true }
        #expect(late.isEmpty, "\(late.count) of \(handOuts.count) tokens were handed out after their expiry")
        #expect(log.invalidated == 0 && log.stopped.isEmpty, "the engine refused a token the app sent: \(log.stopped)")
        // The partition outlasted the token held when it began: a new one was fetched after it.
        let partition = try #require(phases.first { if case .partition = $0.impairment { true } else { false } })
        #expect(fetches.succeeded > partition.after.fetches.succeeded, "a fresh token was fetched after the partition")

        // Fetches stay bounded: one at a time; a successful one at most every quarter of a
        // token's life; in the partition, at most one per attempt of the reporter.
        #expect(fetches.mostRunning == 1)
        let seconds =
            Double(phases.reduce(Duration.zero) { $0 + $1.duration }.components.seconds) + recovery.timeInterval
        #expect(
            Double(fetches.succeeded) <= seconds / (Double(Self.tokenLifetime) / 4) + 1,
            "\(fetches.succeeded) tokens fetched in \(seconds) s")
        let partitionFetches = partition.after.fetches.started - partition.before.fetches.started
        let partitionAttempts = partition.after.log.retries.count - partition.before.log.retries.count + 1
        #expect(
            partitionFetches <= partitionAttempts,
            "\(partitionFetches) fetches for \(partitionAttempts) attempts in the partition")

        // Locations went through in every phase but the partition.
        for phase in phases {
            let accepted = phase.after.log.accepted.count - phase.before.log.accepted.count
            if case .partition = phase.impairment { continue }
            #expect(accepted > 0, "no location was accepted with the link \(phase.impairment)")
        }
        // Back within one retry interval of the reporter (plus the round trip of the request
        // that then goes through).
        #expect(recovery <= Self.retryInterval + .seconds(2), "back \(recovery) after the partition")

        // Every location the reporter said was accepted is in the engine's record of the
        // vehicle's path, and the last one is where the engine has the vehicle, also after a
        // restart.
        let trail = try await servers.trail(of: "vehicle-1")
        let missing = log.accepted.filter { location in
            !trail.contains {
                $0.latitude == location.location?.latitude && $0.longitude == location.location?.longitude
            }
        }
        #expect(missing.isEmpty, "\(missing.count) of \(log.accepted.count) accepted locations are not in the engine")
        let last = try #require(log.accepted.last?.location)
        #expect(try await servers.lastLocation(of: "vehicle-1") == last)
        try await servers.restart()
        #expect(
            try await servers.lastLocation(of: "vehicle-1") == last, "the last acknowledged location survives a restart"
        )
    }

    /// What the app had done when a phase began and when it ended.
    struct Phase: CustomStringConvertible {
        let impairment: ImpairedLink.Impairment
        let before: DriverApp.Snapshot
        let after: DriverApp.Snapshot

        var duration: Duration { after.at - before.at }

        var description: String {
            let accepted = after.log.accepted.count - before.log.accepted.count
            let retries = after.log.retries.count - before.log.retries.count
            let fetches = after.fetches.started - before.fetches.started,
                failed = after.fetches.failed - before.fetches.failed
            return
                "\(impairment) for \(duration): \(accepted) locations accepted, \(retries) retries, \(fetches) token fetches (\(failed) failed)"
        }
    }
}

/// One driver's app as the library's user builds it, defaults throughout: a caching provider
/// fetching from the token server, a Fleet Engine client and a location reporter, all across
/// the link's app side; what its provider and reporter do is recorded.
struct DriverApp: Sendable {
    let reporter: VehicleReporter
    let fetcher: CountingFetcher
    let tokens: HandedOutTokens
    let log: EventLog

    /// What the app had done by a moment.
    struct Snapshot: Sendable {
        let at: ContinuousClock.Instant
        let log: EventLog.Entries
        let fetches: CountingFetcher.Counts
    }

    var snapshot: Snapshot { Snapshot(at: .now, log: log.current, fetches: fetcher.current) }

    /// Logs the vehicle's driver in and builds the app.
    static func start(against servers: ServersBehindLink, vehicleID: String) async throws -> DriverApp {
        let session = try await servers.app.tokenServer.logIn(ServersBehindLink.driver)
        let fetcher = CountingFetcher(
            HTTPTokenFetcher(
                urlTemplate: try TokenURLTemplate("\(servers.app.tokenServer.base)/v1/tokens/driver/{vehicleId}"),
                authorizeRequest: { $0.setValue("Bearer \(session)", forHTTPHeaderField: "Authorization") }))
        let log = EventLog()
        let tokens = HandedOutTokens(CachingTokenProvider(fetcher: fetcher, onEvent: { log.record($0) }))
        let client = FleetEngineClient(
            baseURL: servers.app.fleetEngine, providerID: ServersBehindLink.project, tokens: tokens)
        let reporter = VehicleReporter(vehicleID: vehicleID, client: client)
        log.follow(reporter)
        return DriverApp(reporter: reporter, fetcher: fetcher, tokens: tokens, log: log)
    }

    /// Reports a new location every `interval` until cancelled: step `n` has latitude
    /// 52 + n / 10,000, so every location is another.
    func drive(every interval: Duration) async {
        for step in 0... {
            await reporter.report(
                VehicleLocation(
                    location: LatLng(latitude: 52 + Double(step) / 10_000, longitude: 13.4), heading: 0, speed: 5))
            do { try await Task.sleep(for: interval) } catch { return }
        }
    }
}
