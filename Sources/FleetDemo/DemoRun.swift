import FleetEngineClient
import FleetTokenProvider
import FleetTokens
import Foundation
import LocalStack
import TokenServer

/// One play of the demo: enroll, log in, drive, follow, intrude, restart the token server
/// as asked, then check what Fleet Engine stored.
struct DemoRun {
    static let project = "demo-fleet"
    /// The demo's throwaway accounts are hashed with a low bcrypt cost so that a thousand of
    /// them enroll and log in quickly; the token server's default is 12.
    static let bcryptCost: UInt8 = 6

    let settings: DemoSettings
    let servers: LocalFleet

    func play() async throws -> DemoReport {
        try await DemoNetwork.using(settings, to: servers) { try await play(on: $0) }
    }

    private func play(on network: DemoNetwork) async throws -> DemoReport {
        let count = settings.drivers
        let stats = DemoStats()
        announce(
            """
            FleetAuth demo: \(count) drivers and \(count) consumers for \(settings.duration) s, \(settings.tokenLifetime)-second tokens, apps on \(settings.httpClient.rawValue)
              token server  \(network.tokenServer.absoluteString)   local Fleet Engine  \(network.fleetEngine.absoluteString)/v1/providers/\(Self.project)
            """)

        let (operatorClient, driverSessions, consumerSessions) = try await enroll(count, on: network)

        let drive = Duration.seconds(settings.duration)
        let interval = Duration.seconds(settings.reportInterval)
        let start = ContinuousClock.now
        let followInterval = Duration.seconds(settings.followInterval)
        // Apps start spread over at least one report interval, and over a second per hundred
        // apps: a thousand first token fetches at once time out on Linux's URLSession.
        let rampUp = max(interval, .seconds(Double(count) / 100))
        let consumers = try follow(
            consumerSessions, on: network, stats: stats, every: followInterval, rampUp: rampUp)
        let background: [Task<Void, Never>]
        do {
            background = try await startBackground(
                on: network, stats: stats, driverSession: driverSessions[1], consumerSession: consumerSessions[0],
                during: drive, since: start)
        } catch {
            consumers.cancel()
            throw error
        }
        // Stops the consumers (at once, or after a grace period for their last readings) and
        // the intruder, the progress line and the restarts.
        func stopApps(after grace: Duration) async {
            let deadline = Task {
                try await Task.sleep(for: grace)
                consumers.cancel()
            }
            await consumers.value
            deadline.cancel()
            background.forEach { $0.cancel() }
            for task in background { await task.value }
            clearProgress()
        }
        let acknowledged: [VehicleLocation?]
        do {
            acknowledged = try await driveAll(
                driverSessions, on: network, stats: stats, for: drive, every: interval, rampUp: rampUp)
        } catch {
            await stopApps(after: .zero)
            throw error
        }
        await stopApps(after: followInterval * 3 + .seconds(10))

        let lost = try await lostVehicles(acknowledged, according: operatorClient)
        return DemoReport(
            settings: settings, counts: stats.current, latency: stats.latency,
            minted: Self.tokensIssued(in: servers.metrics.exposition()),
            keyless: await servers.keyless?.standIn.accounts.calls, lostVehicles: lost,
            elapsed: ContinuousClock.now - start)
    }

    /// Starts what runs beside the apps for `drive`: the intruder (with a driver's and a
    /// consumer's session), the progress line, the token server's restarts and the key rotations.
    private func startBackground(
        on network: DemoNetwork, stats: DemoStats, driverSession: String, consumerSession: String,
        during drive: Duration, since start: ContinuousClock.Instant
    ) async throws -> [Task<Void, Never>] {
        let tokenServer = await servers.tokenServer
        let keyless = servers.keyless
        let driverKey =
            try await keyless?.currentKey(of: .driverSDKUser, project: Self.project)
            ?? Self.key(tokenServer, .driverSDKUser)
        let intruder = try DemoIntruder(
            network: network, stats: stats, driverKey: driverKey,
            driverSession: driverSession, consumerSession: consumerSession)
        return [
            // At least 40 attempts, so that every trick is tried several times even in a short demo.
            Task { await intruder.run(every: min(.milliseconds(500), drive / 40)) },
            Task { await progress(stats, since: start) },
            Task { await restartTokenServer(during: drive) },
            Task { await rotateKeys(of: keyless, during: drive) },
        ]
    }

    /// Enrolls `count` vehicles and trips with their accounts and logs every app in: the
    /// operator's Fleet Engine client and the drivers' and consumers' sessions.
    private func enroll(_ count: Int, on network: DemoNetwork) async throws -> (
        operatorClient: FleetEngineClient, driverSessions: [String], consumerSessions: [String]
    ) {
        let tokenServer = await servers.tokenServer
        let setupStart = ContinuousClock.now
        let serverKey = try Self.key(tokenServer, .serviceSuperUser)
        let operatorClient = FleetEngineClient(
            baseURL: network.fleetEngine, providerID: Self.project,
            tokens: ServerTokenProvider(minter: try TokenMinter(key: serverKey)),
            transport: network.transport)
        let administration = AccountAdministration(
            store: tokenServer.store, hasher: PasswordHasher(cost: Self.bcryptCost))
        try await DemoEnrollment(fleet: operatorClient, administration: administration).enroll(count)
        let driverSessions = try await Self.logIn("driver", count, network)
        let consumerSessions = try await Self.logIn("consumer", count, network)
        announce(
            "  enrolled \(count) vehicles, \(count) trips and \(2 * count) accounts, and logged every app in, in \(String(format: "%.1f", (ContinuousClock.now - setupStart).timeInterval)) s"
        )
        return (operatorClient, driverSessions, consumerSessions)
    }

    /// Starts a consumer app for each of `sessions`, each following its trip every `interval`,
    /// their starts spread over `rampUp`.
    private func follow(
        _ sessions: [String], on network: DemoNetwork, stats: DemoStats, every interval: Duration, rampUp: Duration
    ) throws -> Task<Void, Never> {
        let count = sessions.count
        let followers = try (0..<count).map { index in
            DemoConsumer(
                index: index,
                client: try network.client(kind: "consumer", session: sessions[index], stats: stats),
                stats: stats)
        }
        return Task {
            await withTaskGroup(of: Void.self) { group in
                for (index, consumer) in followers.enumerated() {
                    group.addTask {
                        try? await Task.sleep(for: rampUp * (Double(index) / Double(count)))
                        await consumer.follow(every: interval)
                    }
                }
            }
        }
    }

    /// Drives a driver app for each of `sessions` for `duration`, reporting every `interval`,
    /// their starts spread over `rampUp`: the last location Fleet Engine acknowledged to each.
    private func driveAll(
        _ sessions: [String], on network: DemoNetwork, stats: DemoStats, for duration: Duration,
        every interval: Duration, rampUp: Duration
    ) async throws -> [VehicleLocation?] {
        let count = sessions.count
        return try await withThrowingTaskGroup(of: (Int, VehicleLocation?).self) { group in
            for index in 0..<count {
                let driver = DemoDriver(
                    index: index,
                    client: try network.client(kind: "driver", session: sessions[index], stats: stats),
                    stats: stats)
                group.addTask {
                    try await Task.sleep(for: rampUp * (Double(index) / Double(count)))
                    return (index, try await driver.drive(for: duration, every: interval))
                }
            }
            var acknowledged = [VehicleLocation?](repeating: nil, count: count)
            for try await (index, location) in group { acknowledged[index] = location }
            return acknowledged
        }
    }

    /// The vehicles whose stored location is not the last one acknowledged to their driver.
    private func lostVehicles(_ acknowledged: [VehicleLocation?], according operatorClient: FleetEngineClient)
        async throws -> [String]
    {
        var lost: [String] = []
        for index in acknowledged.indices {
            let stored = try await operatorClient.vehicle("vehicle-\(index)").lastLocation
            if stored?.location != acknowledged[index]?.location || acknowledged[index] == nil {
                lost.append("vehicle-\(index)")
            }
        }
        return lost
    }

    /// Logs in `role-0` … `role-(count-1)`, eight at a time, and returns their sessions.
    static func logIn(_ role: String, _ count: Int, _ network: DemoNetwork) async throws -> [String] {
        try await withThrowingTaskGroup(of: (Int, String).self) { group in
            var sessions = [String](repeating: "", count: count)
            for index in 0..<count {
                if index >= 8, let (done, session) = try await group.next() { sessions[done] = session }
                group.addTask { (index, try await network.logIn("\(role)-\(index)")) }
            }
            for try await (done, session) in group { sessions[done] = session }
            return sessions
        }
    }

    /// With `--keyless`, gives every app role's account a new key halfway through the drive:
    /// tokens signed before and after must all keep working.
    private func rotateKeys(of keyless: LocalKeyless?, during drive: Duration) async {
        guard let keyless else { return }
        do {
            try await Task.sleep(for: drive / 2)
            try await keyless.rotateKeys(project: Self.project)
            clearProgress()
            announce("  keys rotated: every app role's account signs with a new key from now on")
        } catch is CancellationError {
            return
        } catch {
            announce("  keys could not be rotated: \(error)")
        }
    }

    /// Stops the token server `settings.tokenServerRestarts` times, evenly spread over the
    /// drive, each time for `settings.tokenServerDowntime` seconds.
    private func restartTokenServer(during drive: Duration) async {
        let restarts = settings.tokenServerRestarts
        guard restarts > 0 else { return }
        let gap = drive / Double(restarts + 1) - .seconds(settings.tokenServerDowntime)
        for restart in 1...restarts {
            do {
                try await Task.sleep(for: gap)
                await servers.stopTokenServer()
                clearProgress()
                announce(
                    "  token server stopped (restart \(restart) of \(restarts)); apps carry on with their cached tokens"
                )
                try await Task.sleep(for: .seconds(settings.tokenServerDowntime))
                try await servers.restartTokenServer()
                clearProgress()
                announce("  token server started again on its port")
            } catch is CancellationError {
                return
            } catch {
                announce("  token server could not be restarted: \(error)")
                return
            }
        }
    }

    /// Rewrites one status line every second on a terminal; prints one every 10 s otherwise.
    private func progress(_ stats: DemoStats, since start: ContinuousClock.Instant) async {
        let terminal = isatty(STDOUT_FILENO) != 0
        for tick in 1... {
            guard (try? await Task.sleep(for: .seconds(1))) != nil else { return }
            guard terminal || tick % 10 == 0 else { continue }
            let counts = stats.current
            let line =
                "  [\(Int((ContinuousClock.now - start).timeInterval))s/\(settings.duration)s] updates \(counts.reported) reported, "
                + "\(counts.accepted) acknowledged, \(counts.retries) retried | tokens \(counts.fetched.values.reduce(0, +)) fetched, "
                + "\(counts.refreshedEarly.values.reduce(0, +)) refreshed early | intruder \(counts.intrusions.values.reduce(0) { $0 + $1.refused }) refused"
            FileHandle.standardOutput.write(Data((terminal ? "\r\u{1B}[K" + line : line + "\n").utf8))
        }
    }

    private func clearProgress() {
        if isatty(STDOUT_FILENO) != 0 { FileHandle.standardOutput.write(Data("\r\u{1B}[K".utf8)) }
    }

    private func announce(_ text: String) {
        Self.announce(text)
    }

    /// Prints `text` and a new line on standard output at once, even when it is a pipe.
    static func announce(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// The token server's signing key of `role`.
    static func key(_ tokenServer: TokenServer, _ role: FleetEngineRole) throws -> ServiceAccountKey {
        guard let key = tokenServer.keyRing.signingKeys.key(for: role) else {
            throw DemoFailure("the token server has no \(role.rawValue) key")
        }
        return key
    }

    /// `fleetauth_tokens_issued_total` by kind, from the token server's Prometheus text.
    static func tokensIssued(in exposition: String) -> [String: Int] {
        var issued: [String: Int] = [:]
        for line in exposition.split(separator: "\n") where line.hasPrefix("fleetauth_tokens_issued_total{") {
            guard let kindStart = line.range(of: "kind=\""),
                let kindEnd = line[kindStart.upperBound...].firstIndex(of: "\""),
                let count = line.split(separator: " ").last.flatMap({ Double($0) }), count > 0
            else { continue }
            issued[String(line[kindStart.upperBound..<kindEnd]), default: 0] += Int(count)
        }
        return issued
    }
}
