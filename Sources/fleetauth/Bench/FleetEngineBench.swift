import ArgumentParser
import FleetServerSupport
import FleetTokens
import Foundation
import LocalFleetEngine
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceLifecycle

/// `fleetauth bench fleet-engine`: location updates per second over loopback HTTP, one cached
/// driver token per vehicle, every update acknowledged only once committed to SQLite (WAL);
/// the same with every token verified afresh; and what verification costs per request.
struct FleetEngineBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet-engine",
        abstract: "Local Fleet Engine: durable location updates/s over loopback HTTP; token verification cached vs uncached."
    )

    @Option(help: "Vehicles, each with its own driver token (a multiple of --connections).")
    var vehicles = 1000

    @Option(help: "Concurrent keep-alive connections.")
    var connections = 100

    @Option(help: "Seconds per measured run (after a 1 s warm-up).")
    var seconds = 10

    @Option(help: "Rounds of (cached, uncached) runs; medians are reported.")
    var rounds = 3

    @Option(help: "Event-loop threads of the load generator (it shares the machine with the engine).")
    var clientThreads = 1

    @Option(help: "A PostgreSQL URL to store vehicles in instead of a temporary SQLite file.")
    var databaseURL: String?

    @Flag(help: "Print JSON.")
    var json = false

    static let project = "bench-fleet"
    static let target = 10_000.0

    /// One measured run.
    struct Run: Encodable {
        let updatesPerSecond: Double
        let p50Milliseconds: Double
        let p99Milliseconds: Double
        /// CPU time of the whole process (engine and load generator) per acknowledged update.
        let cpuMicrosecondsPerUpdate: Double
        let failed: Int
        let vehiclesChecked: Int
        let vehiclesDurable: Int
    }

    struct Report: Encodable {
        let vehicles: Int
        let connections: Int
        let secondsPerRun: Int
        let database: String
        let cached: [Run]
        let uncached: [Run]
        let cachedMedianUpdatesPerSecond: Double
        let uncachedMedianUpdatesPerSecond: Double
        let verifyCachedNanoseconds: Double
        let verifyUncachedNanoseconds: Double
    }

    func validate() throws {
        guard connections >= 1, vehicles >= connections, vehicles % connections == 0 else {
            throw ValidationError("--vehicles must be a multiple of --connections")
        }
        guard seconds >= 1, (1...40).contains(rounds), clientThreads >= 1 else {
            throw ValidationError("--seconds and --client-threads must be at least 1, --rounds 1 to 40")
        }
    }

    func run() async throws {
        let server = try ServiceAccountKey.generate(projectID: Self.project, role: .serviceSuperUser)
        let driver = try ServiceAccountKey.generate(projectID: Self.project, role: .driverSDKUser)
        let accounts = [TrustedServiceAccount(key: server, role: .serviceSuperUser), TrustedServiceAccount(key: driver, role: .driverSDKUser)]
        let driverMinter = try TokenMinter(key: driver)
        let tokens = try (0..<vehicles).map { try driverMinter.mint(.driver(vehicleID: Self.vehicleID($0))).token }
        let serverToken = try TokenMinter(key: server).mint(.server).token

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fleetauth-bench-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var logger = Logger(label: "bench.fleet-engine")
        logger.logLevel = .warning
        let location = DatabaseLocation(dataDirectory: folder, fileName: "bench.sqlite", databaseURL: databaseURL)
        let database = try await FleetDatabase.open(location, logger: logger)
        let store = SQLFleetStore(database: database)
        try await store.prepare()
        let clients = MultiThreadedEventLoopGroup(numberOfThreads: clientThreads)

        var cached: [Run] = [], uncached: [Run] = []
        do {
            try await withEngine(store: store, accounts: accounts, cacheCapacity: 10, logger: logger) { port in
                try await createVehicles(port: port, token: serverToken, on: clients)
            }
            var run = 0
            for round in 1...rounds {
                for capacity in [100_000, 1] {
                    run += 1
                    let (tally, cpuSeconds) = try await withEngine(store: store, accounts: accounts, cacheCapacity: capacity, logger: logger) { port in
                        try await measure(port: port, tokens: tokens, run: run, on: clients)
                    }
                    let checked = try await durability(of: tally, run: run, store: store)
                    let result = Run(
                        updatesPerSecond: Double(tally.succeeded) / Double(seconds),
                        p50Milliseconds: Self.percentile(0.5, tally.latencies), p99Milliseconds: Self.percentile(0.99, tally.latencies),
                        cpuMicrosecondsPerUpdate: cpuSeconds / Double(max(1, tally.succeeded)) * 1e6,
                        failed: tally.failed, vehiclesChecked: checked.checked, vehiclesDurable: checked.durable)
                    if capacity == 1 { uncached.append(result) } else { cached.append(result) }
                    if let failure = tally.firstFailure { logger.warning("requests failed", metadata: ["first": "\(failure)", "count": "\(tally.failed)"]) }
                }
                if !json { FileHandle.standardError.write(Data("round \(round)/\(rounds) done\n".utf8)) }
            }
        } catch {
            try? await clients.shutdownGracefully()
            await database.shutdown()
            throw error
        }
        try? await clients.shutdownGracefully()
        await database.shutdown()

        let verifier = TokenVerifier(trusting: accounts)
        _ = try verifier.verify(tokens[0])
        let cachedRate = Throughput.median((1...3).map { _ in Throughput.measure(seconds: 1) { _ = try? verifier.verify(tokens[0]) } })
        let uncachedRate = Throughput.median((1...3).map { _ in Throughput.measure(seconds: 1) { _ = try? verifier.verifyWithoutCache(tokens[0]) } })
        let report = Report(
            vehicles: vehicles, connections: connections, secondsPerRun: seconds, database: location.kind.rawValue,
            cached: cached, uncached: uncached,
            cachedMedianUpdatesPerSecond: Throughput.median(cached.map(\.updatesPerSecond)),
            uncachedMedianUpdatesPerSecond: Throughput.median(uncached.map(\.updatesPerSecond)),
            verifyCachedNanoseconds: 1e9 / cachedRate, verifyUncachedNanoseconds: 1e9 / uncachedRate
        )
        if json {
            try JSONOutput.print(report)
        } else {
            print(Self.table(report))
        }
    }

    /// CPU time (user and system) of the whole process so far, in seconds.
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    static func vehicleID(_ index: Int) -> String { "bench-\(index)" }

    /// Runs an engine on a free port over `store` while `body` runs, then shuts it down
    /// gracefully (every accepted write saved).
    private func withEngine<Result: Sendable>(
        store: SQLFleetStore, accounts: [TrustedServiceAccount], cacheCapacity: Int, logger: Logger,
        _ body: (Int) async throws -> Result
    ) async throws -> Result {
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        let engine = LocalFleetEngine(
            configuration: .init(projectID: Self.project, trustedAccounts: accounts, port: 0, verifiedTokenCacheCapacity: cacheCapacity,
                                 onStarted: { portSink.yield($0) }),
            store: store, logger: logger)
        let group = ServiceGroup(services: [engine], gracefulShutdownSignals: [], logger: logger)
        let running = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw CommandFailure("the engine did not start") }
        let result: Swift.Result<Result, any Error>
        do {
            result = .success(try await body(port))
        } catch {
            result = .failure(error)
        }
        await group.triggerGracefulShutdown()
        try await running.value
        return try result.get()
    }

    private func createVehicles(port: Int, token: String, on group: any EventLoopGroup) async throws {
        let body = ByteBuffer(string: #"{"vehicleState":"ONLINE","supportedTripTypes":["EXCLUSIVE"],"maximumCapacity":4,"vehicleType":{"category":"AUTO"}}"#)
        let creators = 8
        let tally = try await HTTPLoad.run(
            host: "127.0.0.1", port: port, connections: creators, duration: .seconds(600),
            requestsPerConnection: (vehicles + creators - 1) / creators, on: group
        ) { connection, n in
            let index = min(connection + n * creators, vehicles - 1)
            let uri = "/v1/providers/\(Self.project)/vehicles?vehicleId=\(Self.vehicleID(index))"
            return HTTPLoad.Request(head: Self.head(.POST, uri, token: token, length: body.readableBytes), body: body, subject: index, step: 1)
        }
        let created = tally.acknowledged.count
        guard created == vehicles else { throw CommandFailure("created \(created) of \(vehicles) vehicles (\(tally.firstFailure ?? "?"))") }
    }

    /// Each connection drives `vehicles / connections` vehicles in turn. A vehicle's nth update
    /// of run r puts it at latitude 10 + r + n / 10^7 (written with fixed width, so every request
    /// is the same size and its head is made once): the stored latitude tells which update it is.
    private func measure(port: Int, tokens: [String], run: Int, on group: any EventLoopGroup) async throws -> (tally: HTTPLoad.Tally, cpuSeconds: Double) {
        let perConnection = vehicles / connections
        let connections = connections
        let bodyLength = Self.locationUpdate(run: run, step: 0).readableBytes
        let heads = (0..<vehicles).map { index in
            Self.head(.PUT, "/v1/providers/\(Self.project)/vehicles/\(Self.vehicleID(index))?updateMask=lastLocation", token: tokens[index], length: bodyLength)
        }
        let request: @Sendable (Int, Int) -> HTTPLoad.Request = { connection, n in
            let index = connection + (n % perConnection) * connections
            let step = n / perConnection + 1
            return HTTPLoad.Request(head: heads[index], body: Self.locationUpdate(run: run, step: step), subject: index, step: step)
        }
        _ = try await HTTPLoad.run(host: "127.0.0.1", port: port, connections: connections, duration: .seconds(1), on: group, request: request)
        let cpuBefore = Self.processCPUSeconds()
        let tally = try await HTTPLoad.run(host: "127.0.0.1", port: port, connections: connections, duration: .seconds(seconds), on: group, request: request)
        return (tally, Self.processCPUSeconds() - cpuBefore)
    }

    /// The body of update `step` (below 10^7) of run `run` (1 to 79): latitude 10 + run + step / 10^7,
    /// always two digits before the point (JSON allows no leading zero) and seven after.
    private static func locationUpdate(run: Int, step: Int) -> ByteBuffer {
        let latitude = String(format: "%d.%07d", 10 + run, step)
        return ByteBuffer(string: #"{"lastLocation":{"location":{"latitude":\#(latitude),"longitude":13.405},"heading":90,"speed":8.5,"updateTime":"2026-11-21T16:30:00Z"}}"#)
    }

    /// How many vehicles the run acknowledged updates for, and for how many of them the store
    /// holds exactly the last acknowledged one.
    private func durability(of tally: HTTPLoad.Tally, run: Int, store: SQLFleetStore) async throws -> (checked: Int, durable: Int) {
        let snapshot = try await store.load(provider: Self.project)
        var durable = 0
        for (index, step) in tally.acknowledged {
            let latitude = snapshot.vehicles[Self.vehicleID(index)]?.lastLocation?.location?.latitude ?? -1
            if Int(((latitude - Double(10 + run)) * 1e7).rounded()) == step { durable += 1 }
        }
        return (tally.acknowledged.count, durable)
    }

    private static func head(_ method: HTTPMethod, _ uri: String, token: String, length: Int) -> HTTPRequestHead {
        HTTPRequestHead(version: .http1_1, method: method, uri: uri, headers: [
            "Host": "127.0.0.1", "Authorization": "Bearer \(token)", "Content-Type": "application/json", "Content-Length": String(length),
        ])
    }

    private static func percentile(_ fraction: Double, _ latencies: [Int64]) -> Double {
        guard !latencies.isEmpty else { return 0 }
        let sorted = latencies.sorted()
        return Double(sorted[Int(Double(sorted.count - 1) * fraction)]) / 1e6
    }

    private static func table(_ report: Report) -> String {
        func row(_ name: String, _ runs: [Run], _ median: Double, target: Double?) -> String {
            let p50 = Throughput.median(runs.map(\.p50Milliseconds)), p99 = Throughput.median(runs.map(\.p99Milliseconds))
            let cpu = Throughput.median(runs.map(\.cpuMicrosecondsPerUpdate))
            let durable = runs.allSatisfy { $0.vehiclesDurable == $0.vehiclesChecked } ? "all" : "NOT ALL"
            let verdict = target.map { median >= $0 ? "  >= \(Int($0))/s ok" : "  >= \(Int($0))/s MISSED" } ?? ""
            return name.padding(toLength: 22, withPad: " ", startingAt: 0)
                + String(format: "%9.0f %8.2f %8.2f %9.0f   ", median, p50, p99, cpu) + durable + verdict
        }
        return [
            "local Fleet Engine: \(report.vehicles) vehicles, \(report.connections) connections, \(report.secondsPerRun) s runs, "
                + "\(report.cached.count) rounds (medians), \(report.database), each answer after its commit",
            "run                   updates/s   p50 ms   p99 ms  CPU µs/update   stored == last acknowledged",
            row("cached driver tokens", report.cached, report.cachedMedianUpdatesPerSecond, target: target),
            row("every token verified", report.uncached, report.uncachedMedianUpdatesPerSecond, target: nil),
            String(format: "verification per request: cached %.0f ns, uncached %.1f µs (one thread)",
                   report.verifyCachedNanoseconds, report.verifyUncachedNanoseconds / 1000),
            "CPU µs/update counts the engine and the load generator together (the whole process).",
        ].joined(separator: "\n")
    }
}
