import ArgumentParser
import CommandSupport
import FleetAuthServerHTTP
import FleetDemo
import FleetTokens
import Foundation
import GRPCCore
import LocalFleetEngine
import LocalFleetEngineGRPCSwift
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceLifecycle

/// `fleetauth-bench fleet-engine`: location updates per second over loopback HTTP (load from
/// `wrk`), one cached driver token per vehicle, every update acknowledged only once committed
/// to SQLite (WAL); the same with every token verified afresh; delivery vehicles' location
/// updates (UpdateDeliveryVehicle with untrusted delivery driver tokens) on the same engine; the same two over the gRPC door
/// (load from gRPC's C++ core, ``GRPCUpdateLoad``), and vehicles' over it on grpc-swift's own
/// transport (``GRPCSwiftDoorTransport``); what verification costs per request;
/// and, as the references for this host at this moment, how many authenticated reads of a
/// vehicle the same engine serves (the floor of HTTP, routing and token checks) and how many
/// updates grpc-swift answers with nothing behind it (``GRPCFloorService``, the gRPC floor).
struct FleetEngineBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet-engine",
        abstract:
            "Local Fleet Engine: durable location updates/s over loopback REST and gRPC; token verification cached vs uncached."
    )

    @Option(help: "Vehicles, each with its own driver token (at least --connections).")
    var vehicles = 1000

    @Option(help: "Concurrent keep-alive connections.")
    var connections = 100

    @Option(help: "Seconds per measured run (after a 1 s warm-up).")
    var seconds = 10

    @Option(help: "Rounds of (cached, uncached) runs; medians are reported.")
    var rounds = 3

    @Option(
        help:
            "Threads of the load generators, wrk and the one that creates the vehicles (they share the machine with the engine)."
    )
    var clientThreads = 1

    @Option(help: "HTTP/2 connections of the gRPC runs, over which --connections calls are multiplexed.")
    var grpcConnections = 4

    @Option(help: "The gRPC load generator, built by Benchmarks/grpc-cpp/build.sh.")
    var grpcLoad = ".build-grpc-cpp/update-load"

    @Option(help: "A PostgreSQL URL to store vehicles in instead of a temporary SQLite file.")
    var databaseURL: String?

    @Flag(help: "Print JSON.")
    var json = false

    static let target = 10_000.0

    /// One measured run.
    struct Run: Encodable {
        let updatesPerSecond: Double
        let p50Milliseconds: Double
        let p99Milliseconds: Double
        /// CPU time of this process (the engine) and of the load generator per acknowledged update.
        let cpuMicrosecondsPerUpdate: Double
        /// CPU time of this process (the engine, or the gRPC floor) alone per acknowledged update.
        let serverCPUMicrosecondsPerUpdate: Double
        /// The share of the machine's time the hypervisor gave to other guests during the run
        /// (`nil` off Linux): a run with much stolen is slow for reasons outside the engine.
        let stolenPercent: Double?
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
        /// Cached runs with the console and its test harness (`/emulator/v1/`) on, no fault set
        /// and the clock untouched, one per round, after the round's cached run.
        let harnessCached: [Run]
        /// The median, over rounds, of those updates/s divided by the same round's cached run.
        let harnessToPlainRatio: Double
        /// Cached runs of delivery vehicles' location updates, one per round, REST and gRPC.
        let deliveryCached: [Run]
        let grpcDeliveryCached: [Run]
        /// The cached and uncached runs over gRPC.
        let grpcCached: [Run]
        let grpcUncached: [Run]
        /// Cached runs over gRPC with the door on grpc-swift's own transport
        /// (``GRPCSwiftDoorTransport``), one per round, after the round's cached gRPC run.
        let grpcOnGRPCSwiftCached: [Run]
        /// The median, over rounds, of cached gRPC updates/s on the door's transport divided by
        /// those on grpc-swift's in the same round.
        let grpcDoorToGRPCSwiftRatio: Double
        /// Authenticated `GET`s of a vehicle per second, one run per round.
        let readsPerSecond: [Double]
        /// The machine's time stolen during each read run, in percent.
        let readsStolenPercent: [Double?]
        let cachedMedianUpdatesPerSecond: Double
        let uncachedMedianUpdatesPerSecond: Double
        let deliveryCachedMedianUpdatesPerSecond: Double
        /// The median, over rounds, of delivery vehicles' cached updates/s divided by vehicles' in the same round.
        let deliveryToVehicleRatio: Double
        let grpcDeliveryCachedMedianUpdatesPerSecond: Double
        /// The same over gRPC.
        let grpcDeliveryToVehicleRatio: Double
        let grpcCachedMedianUpdatesPerSecond: Double
        let grpcUncachedMedianUpdatesPerSecond: Double
        let readsMedianPerSecond: Double
        /// The median, over rounds, of cached updates/s divided by reads/s in the same round.
        let updatesToReadsRatio: Double
        /// The median, over rounds, of cached gRPC updates/s divided by cached REST updates/s in the same round.
        let grpcToRESTRatio: Double
        /// The gRPC floor's runs, one per round.
        let grpcFloor: [Run]
        /// The median, over rounds, of cached gRPC updates/s divided by the floor's in the same round.
        let grpcToFloorRatio: Double
        /// The Node.js competitor's updates (``nodeScript``), one run per round.
        let node: [Run]
        /// The Node.js competitor's authenticated `GET`s per second, one run per round.
        let nodeReadsPerSecond: [Double]
        /// The median, over rounds, of the competitor's updates/s divided by its reads/s in the same round.
        let nodeUpdatesToReadsRatio: Double
        let verifyCachedNanoseconds: Double
        let verifyUncachedNanoseconds: Double
    }

    func validate() throws {
        guard connections >= clientThreads, vehicles >= connections else {
            throw ValidationError(
                "--vehicles must be at least --connections, and --connections at least --client-threads")
        }
        guard seconds >= 1, (1...19).contains(rounds), clientThreads >= 1, (1...connections).contains(grpcConnections)
        else {
            throw ValidationError(
                "--seconds and --client-threads must be at least 1, --rounds 1 to 19, --grpc-connections 1 to --connections"
            )
        }
        guard FileManager.default.isExecutableFile(atPath: grpcLoad) else {
            throw ValidationError("no gRPC load generator at \(grpcLoad): build it with Benchmarks/grpc-cpp/build.sh")
        }
    }

    func run() async throws {
        guard #available(macOS 15.0, *) else {
            throw CommandFailure("the gRPC runs need grpc-swift 2, which needs macOS 15")
        }
        let project = BenchProvider.named("bench-fleet")
        let server = try ServiceAccountKey.generate(projectID: project, role: .serviceSuperUser)
        let driver = try ServiceAccountKey.generate(projectID: project, role: .driverSDKUser)
        let deliveryServer = try ServiceAccountKey.generate(projectID: project, role: .deliverySuperUser)
        let deliveryDriver = try ServiceAccountKey.generate(projectID: project, role: .deliveryUntrustedDriver)
        let accounts = [
            TrustedServiceAccount(key: server, role: .serviceSuperUser),
            TrustedServiceAccount(key: driver, role: .driverSDKUser),
            TrustedServiceAccount(key: deliveryServer, role: .deliverySuperUser),
            TrustedServiceAccount(key: deliveryDriver, role: .deliveryUntrustedDriver),
        ]
        let driverMinter = try TokenMinter(key: driver)
        let tokens = try (0..<vehicles).map { try driverMinter.mint(.driver(vehicleID: Self.vehicleID($0))).token }
        let deliveryMinter = try TokenMinter(key: deliveryDriver)
        let deliveryTokens = try (0..<vehicles).map {
            try deliveryMinter.mint(.untrustedDeliveryDriver(deliveryVehicleID: Self.vehicleID($0))).token
        }
        let serverToken = try TokenMinter(key: server).mint(.server).token
        let deliveryServerToken = try TokenMinter(key: deliveryServer).mint(.deliveryServer).token

        let folder = try BenchFolder.create()
        defer { BenchFolder.remove(folder) }
        var logger = Logger(label: "bench.fleet-engine", factory: DeferredMetadataLogHandler.standardError)
        logger.logLevel = .warning
        let tokensFile = folder + "/driver-tokens"
        let deliveryTokensFile = folder + "/delivery-driver-tokens"
        for (file, lines) in [(tokensFile, tokens), (deliveryTokensFile, deliveryTokens)] {
            guard
                FileManager.default.createFile(
                    atPath: file, contents: Data(lines.joined(separator: "\n").utf8),
                    attributes: [.posixPermissions: 0o600])
            else {
                throw CommandFailure("cannot write \(file)")
            }
        }
        let (database, lock) = try await EngineDatabase.open(
            dataDirectory: folder, databaseURL: databaseURL, logger: logger)
        defer { lock.release() }
        let store = SQLEngineStore(database: database)
        let clients = MultiThreadedEventLoopGroup(numberOfThreads: clientThreads)

        var cached: [Run] = [], uncached: [Run] = [], harnessCached: [Run] = [], deliveryCached: [Run] = [],
            grpcCached: [Run] = [], grpcUncached: [Run] = []
        var grpcDeliveryCached: [Run] = [], grpcOnGRPCSwiftCached: [Run] = []
        var grpcFloor: [Run] = [], reads: [Double] = [], readsStolen: [Double?] = []
        var node: [Run] = [], nodeReads: [Double] = []
        let nodeFixtures = try Self.writeNodeFixtures(
            project: project, keys: [server, driver], vehicles: vehicles, folder: folder)
        do {
            try await withEngine(project: project, store: store, accounts: accounts, cacheCapacity: 10, logger: logger)
            { port, _ in
                try await createVehicles(
                    project: project, collection: "vehicles", port: port, token: serverToken, on: clients)
                try await createVehicles(
                    project: project, collection: "deliveryVehicles", port: port, token: deliveryServerToken,
                    on: clients)
            }
            var run = 0
            for round in 1...rounds {
                for capacity in [100_000, 1] {
                    run += 1
                    let (load, cpuSeconds, stolenPercent) = try await withEngine(
                        project: project, store: store, accounts: accounts, cacheCapacity: capacity, logger: logger
                    ) { port, _ in
                        try await measure(
                            project: project, port: port, tokensFile: tokensFile, run: run, folder: folder)
                    }
                    let result = try await Self.run(
                        load.succeeded, load.failed, load.seconds, load.latency, cpuSeconds: cpuSeconds,
                        stolenPercent: stolenPercent,
                        durability: durability(of: Self.acknowledged(load), run: run, project: project, store: store))
                    if capacity == 1 { uncached.append(result) } else { cached.append(result) }
                    if load.failed > 0 { logger.warning("requests failed", metadata: ["count": "\(load.failed)"]) }
                }
                run += 1
                let (harnessLoad, harnessCPU, harnessStolen) = try await withEngine(
                    project: project, store: store, accounts: accounts, cacheCapacity: 100_000, harness: true,
                    logger: logger
                ) { port, _ in
                    try await measure(project: project, port: port, tokensFile: tokensFile, run: run, folder: folder)
                }
                harnessCached.append(
                    try await Self.run(
                        harnessLoad.succeeded, harnessLoad.failed, harnessLoad.seconds, harnessLoad.latency,
                        cpuSeconds: harnessCPU,
                        stolenPercent: harnessStolen,
                        durability: durability(
                            of: Self.acknowledged(harnessLoad), run: run, project: project, store: store)))
                run += 1
                let (deliveryLoad, deliveryCPU, deliveryStolen) = try await withEngine(
                    project: project, store: store, accounts: accounts, cacheCapacity: 100_000, logger: logger
                ) { port, _ in
                    try await measure(
                        project: project, port: port, tokensFile: deliveryTokensFile, run: run, folder: folder,
                        collection: "deliveryVehicles")
                }
                deliveryCached.append(
                    try await Self.run(
                        deliveryLoad.succeeded, deliveryLoad.failed, deliveryLoad.seconds, deliveryLoad.latency,
                        cpuSeconds: deliveryCPU,
                        stolenPercent: deliveryStolen,
                        durability: durability(
                            of: Self.acknowledged(deliveryLoad), run: run, project: project, store: store,
                            delivery: true)))
                if deliveryLoad.failed > 0 {
                    logger.warning("delivery updates failed", metadata: ["count": "\(deliveryLoad.failed)"])
                }
                for (capacity, transport) in [
                    (100_000, nil), (1, nil), (100_000, GRPCSwiftDoorTransport()),
                ] as [(Int, (any GRPCDoorTransportMaker)?)] {
                    run += 1
                    let (load, cpuSeconds, stolenPercent) = try await withEngine(
                        project: project, store: store, accounts: accounts, cacheCapacity: capacity, grpc: true,
                        grpcTransport: transport, logger: logger
                    ) { _, grpcPort in
                        try await measureGRPC(project: project, port: grpcPort ?? 0, tokensFile: tokensFile, run: run)
                    }
                    let result = try await Self.run(
                        load.succeeded, load.failed, load.seconds, load.latency, cpuSeconds: cpuSeconds,
                        stolenPercent: stolenPercent,
                        durability: durability(of: load.acknowledged, run: run, project: project, store: store))
                    if transport != nil {
                        grpcOnGRPCSwiftCached.append(result)
                    } else if capacity == 1 {
                        grpcUncached.append(result)
                    } else {
                        grpcCached.append(result)
                    }
                    if load.failed > 0 {
                        logger.warning(
                            "gRPC calls failed",
                            metadata: ["count": "\(load.failed)", "first": "\(load.firstFailure ?? "?")"])
                    }
                }
                run += 1
                let (grpcDelivery, grpcDeliveryCPU, grpcDeliveryStolen) = try await withEngine(
                    project: project, store: store, accounts: accounts, cacheCapacity: 100_000, grpc: true,
                    logger: logger
                ) { _, grpcPort in
                    try await measureGRPC(
                        project: project, port: grpcPort ?? 0, tokensFile: deliveryTokensFile, run: run,
                        collection: "deliveryVehicles")
                }
                grpcDeliveryCached.append(
                    try await Self.run(
                        grpcDelivery.succeeded, grpcDelivery.failed, grpcDelivery.seconds, grpcDelivery.latency,
                        cpuSeconds: grpcDeliveryCPU,
                        stolenPercent: grpcDeliveryStolen,
                        durability: durability(
                            of: grpcDelivery.acknowledged, run: run, project: project, store: store, delivery: true)))
                if grpcDelivery.failed > 0 {
                    logger.warning(
                        "gRPC delivery updates failed",
                        metadata: ["count": "\(grpcDelivery.failed)", "first": "\(grpcDelivery.firstFailure ?? "?")"])
                }
                let (floor, floorCPU, floorStolen) = try await withGRPCFloor(logger: logger) { port in
                    try await measureGRPC(project: project, port: port, tokensFile: tokensFile, run: run)
                }
                grpcFloor.append(
                    Self.run(
                        floor.succeeded, floor.failed, floor.seconds, floor.latency, cpuSeconds: floorCPU,
                        stolenPercent: floorStolen,
                        durability: (0, 0)))
                let (read, readStolenPercent) = try await withEngine(
                    project: project, store: store, accounts: accounts, cacheCapacity: 100_000, logger: logger
                ) { port, _ in
                    try await measureReads(project: project, port: port, tokensFile: tokensFile, folder: folder)
                }
                reads.append(Double(read.succeeded) / read.seconds)
                readsStolen.append(readStolenPercent)
                if read.failed > 0 { logger.warning("reads failed", metadata: ["count": "\(read.failed)"]) }
                run += 1
                let competitor = try await measureNode(
                    project: project, fixtures: nodeFixtures, tokens: tokens, tokensFile: tokensFile, run: run,
                    folder: folder, on: clients)
                node.append(competitor.updates)
                nodeReads.append(competitor.readsPerSecond)
                if !json { FileHandle.standardError.write(Data("round \(round)/\(rounds) done\n".utf8)) }
            }
        } catch {
            try? await clients.shutdownGracefully()
            await BenchProvider.remove(project, from: store, thenClose: database, logger: logger)
            throw error
        }
        try? await clients.shutdownGracefully()
        await BenchProvider.remove(project, from: store, thenClose: database, logger: logger)

        let verifier = TokenVerifier(trusting: accounts)
        _ = try verifier.verify(tokens[0])
        let cachedRate = Throughput.median(
            (1...3).map { _ in Throughput.measure(seconds: 1) { _ = try? verifier.verify(tokens[0]) } })
        let uncachedRate = Throughput.median(
            (1...3).map { _ in Throughput.measure(seconds: 1) { _ = try? verifier.verifyWithoutCache(tokens[0]) } })
        let report = Report(
            vehicles: vehicles, connections: connections, secondsPerRun: seconds,
            database: database.location.kind.rawValue,
            cached: cached, uncached: uncached, harnessCached: harnessCached,
            harnessToPlainRatio: Throughput.median(
                zip(harnessCached, cached).map { $0.updatesPerSecond / $1.updatesPerSecond }),
            deliveryCached: deliveryCached, grpcDeliveryCached: grpcDeliveryCached,
            grpcCached: grpcCached, grpcUncached: grpcUncached, grpcOnGRPCSwiftCached: grpcOnGRPCSwiftCached,
            grpcDoorToGRPCSwiftRatio: Throughput.median(
                zip(grpcCached, grpcOnGRPCSwiftCached).map { $0.updatesPerSecond / $1.updatesPerSecond }),
            readsPerSecond: reads, readsStolenPercent: readsStolen,
            cachedMedianUpdatesPerSecond: Throughput.median(cached.map(\.updatesPerSecond)),
            uncachedMedianUpdatesPerSecond: Throughput.median(uncached.map(\.updatesPerSecond)),
            deliveryCachedMedianUpdatesPerSecond: Throughput.median(deliveryCached.map(\.updatesPerSecond)),
            deliveryToVehicleRatio: Throughput.median(
                zip(deliveryCached, cached).map { $0.updatesPerSecond / $1.updatesPerSecond }),
            grpcDeliveryCachedMedianUpdatesPerSecond: Throughput.median(grpcDeliveryCached.map(\.updatesPerSecond)),
            grpcDeliveryToVehicleRatio: Throughput.median(
                zip(grpcDeliveryCached, grpcCached).map { $0.updatesPerSecond / $1.updatesPerSecond }),
            grpcCachedMedianUpdatesPerSecond: Throughput.median(grpcCached.map(\.updatesPerSecond)),
            grpcUncachedMedianUpdatesPerSecond: Throughput.median(grpcUncached.map(\.updatesPerSecond)),
            readsMedianPerSecond: Throughput.median(reads),
            updatesToReadsRatio: Throughput.median(zip(cached, reads).map { $0.updatesPerSecond / $1 }),
            grpcToRESTRatio: Throughput.median(
                zip(grpcCached, cached).map { $0.updatesPerSecond / $1.updatesPerSecond }),
            grpcFloor: grpcFloor,
            grpcToFloorRatio: Throughput.median(
                zip(grpcCached, grpcFloor).map { $0.updatesPerSecond / $1.updatesPerSecond }),
            node: node, nodeReadsPerSecond: nodeReads,
            nodeUpdatesToReadsRatio: Throughput.median(zip(node, nodeReads).map { $0.updatesPerSecond / $1 }),
            verifyCachedNanoseconds: 1e9 / cachedRate, verifyUncachedNanoseconds: 1e9 / uncachedRate
        )
        if json {
            try JSONOutput.print(report)
        } else {
            print(Self.table(report))
        }
    }

    static func vehicleID(_ index: Int) -> String { "bench-\(index)" }

    /// Runs an engine on a free port (and its gRPC door on another when `grpc`; with the console
    /// and its test harness when `harness`) over `store` while `body` runs with the ports, then
    /// shuts it down gracefully (every accepted write saved).
    private func withEngine<Result: Sendable>(
        project: String, store: SQLEngineStore, accounts: [TrustedServiceAccount], cacheCapacity: Int,
        grpc: Bool = false, grpcTransport: (any GRPCDoorTransportMaker)? = nil, harness: Bool = false,
        logger: Logger,
        _ body: (_ port: Int, _ grpcPort: Int?) async throws -> Result
    ) async throws -> Result {
        let (grpcPorts, grpcStarted) = AsyncStream.makeStream(of: Int.self)
        let engine = try await RunningService.start(logger: logger) { onStarted in
            var configuration = LocalFleetEngineConfiguration(
                projectID: project, trustedAccounts: accounts, port: 0, grpcPort: grpc ? 0 : nil,
                verifiedTokenCacheCapacity: cacheCapacity, console: harness ? .loopback : .off,
                onStarted: onStarted,
                onGRPCStarted: { grpcStarted.yield($0) })
            configuration.grpcTransport = grpcTransport
            return LocalFleetEngine(configuration: configuration, store: store, logger: logger)
        }
        let result: Swift.Result<Result, any Error>
        do {
            let grpcPort = grpc ? await grpcPorts.first { _ in true } : nil
            result = .success(try await body(engine.port, grpcPort))
        } catch {
            result = .failure(error)
        }
        await engine.stop()
        return try result.get()
    }

    /// Creates `bench-0` … in `collection`: on-demand `vehicles`, or `deliveryVehicles`.
    private func createVehicles(
        project: String, collection: String, port: Int, token: String, on group: any EventLoopGroup
    ) async throws {
        let body = ByteBuffer(
            string: collection == "vehicles"
                ? #"{"vehicleState":"ONLINE","supportedTripTypes":["EXCLUSIVE"],"maximumCapacity":4,"vehicleType":{"category":"AUTO"}}"#
                : "{}")
        let idParameter = collection == "vehicles" ? "vehicleId" : "deliveryVehicleId"
        // Creators that divide the vehicles evenly, so that each vehicle is created exactly once.
        let creators = (1...8).last { vehicles.isMultiple(of: $0) } ?? 1
        let tally = try await HTTPLoad.run(
            host: "127.0.0.1", port: port, connections: creators, duration: .seconds(600),
            requestsPerConnection: vehicles / creators, on: group
        ) { connection, n in
            let uri =
                "/v1/providers/\(project)/\(collection)?\(idParameter)=\(Self.vehicleID(connection + n * creators))"
            return HTTPLoad.Request(head: Self.head(.POST, uri, token: token, length: body.readableBytes), body: body)
        }
        guard tally.succeeded == vehicles, tally.failed == 0 else {
            throw CommandFailure("created \(tally.succeeded) of \(vehicles) vehicles (\(tally.firstFailure ?? "?"))")
        }
    }

    /// One run of wrk after a 1 s warm-up: each request moves a vehicle whose previous update
    /// has been answered (so no vehicle has two in flight) one step; the vehicle's nth update
    /// of run r puts it at latitude 10 + r + n / 10^7, so the stored latitude tells which
    /// update it is. Returns the run, the CPU time of this process and wrk together, and the
    /// share of the machine's time stolen meanwhile.
    private func measure(
        project: String, port: Int, tokensFile: String, run: Int, folder: String, collection: String = "vehicles",
        serverCPUSeconds: () throws -> Double = Throughput.processCPUSeconds
    ) async throws -> (load: Wrk.Result, cpuSeconds: (server: Double, load: Double), stolenPercent: Double?) {
        func load(seconds: Int) async throws -> Wrk.Result {
            try await Wrk.run(
                url: "http://127.0.0.1:\(port)", connections: connections, threads: clientThreads, seconds: seconds,
                script: "fleet-engine-updates.lua",
                arguments: [project, String(run), tokensFile, String(clientThreads), collection], folder: folder)
        }
        _ = try await load(seconds: 1)
        let (cpuBefore, hostBefore) = (try serverCPUSeconds(), HostCPU.now())
        let result = try await load(seconds: seconds)
        return (
            (result), (try serverCPUSeconds() - cpuBefore, result.cpuSeconds),
            HostCPU.stolenPercent(from: hostBefore, to: HostCPU.now())
        )
    }

    /// One run of gRPC updates on `port`, as ``measure(project:port:tokensFile:run:folder:)`` over
    /// REST; the load generator warms up for 1 s, whose share this process's CPU time leaves out.
    private func measureGRPC(
        project: String, port: Int, tokensFile: String, run: Int, collection: String = "vehicles"
    ) async throws -> (load: GRPCUpdateLoad.Result, cpuSeconds: (server: Double, load: Double), stolenPercent: Double?)
    {
        let (cpuBefore, hostBefore) = (Throughput.processCPUSeconds(), HostCPU.now())
        let (result, loadCPUSeconds) = try await GRPCUpdateLoad.run(
            program: grpcLoad, port: port, project: project, tokensFile: tokensFile, connections: grpcConnections,
            streams: connections,
            seconds: seconds, run: run, collection: collection)
        let (cpuAfter, hostAfter) = (Throughput.processCPUSeconds(), HostCPU.now())
        let serverCPUSeconds = (cpuAfter - cpuBefore) * Double(seconds) / Double(seconds + 1)
        return (result, (serverCPUSeconds, loadCPUSeconds), HostCPU.stolenPercent(from: hostBefore, to: hostAfter))
    }

    /// Serves ``GRPCFloorService`` on a free port while `body` runs with the port.
    @available(macOS 15.0, *)
    private func withGRPCFloor<Result: Sendable>(logger: Logger, _ body: (Int) async throws -> Result) async throws
        -> Result
    {
        // Served as the engine's door serves: on its transport.
        let transport = UnaryHTTP2ServerTransport(host: "127.0.0.1", port: 0, maximumRequestSize: 4 * 1024 * 1024)
        let server = GRPCServer(transport: transport, services: [GRPCFloorService()])
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.serve() }
            defer { server.beginGracefulShutdown() }
            return try await body(try await transport.listeningPort)
        }
    }

    /// A measured run's row: its answers, time, latency, CPU of the server and of the load, and
    /// how many vehicles were checked and durable.
    private static func run(
        _ succeeded: Int, _ failed: Int, _ seconds: Double, _ latency: LatencySummary,
        cpuSeconds: (server: Double, load: Double),
        stolenPercent: Double?, durability: (checked: Int, durable: Int)
    ) -> Run {
        let perUpdate = 1e6 / Double(max(1, succeeded))
        return Run(
            updatesPerSecond: Double(succeeded) / seconds, p50Milliseconds: latency.p50Milliseconds,
            p99Milliseconds: latency.p99Milliseconds,
            cpuMicrosecondsPerUpdate: (cpuSeconds.server + cpuSeconds.load) * perUpdate,
            serverCPUMicrosecondsPerUpdate: cpuSeconds.server * perUpdate,
            stolenPercent: stolenPercent, failed: failed, vehiclesChecked: durability.checked,
            vehiclesDurable: durability.durable)
    }

    /// One run of authenticated reads (after a 1 s warm-up): each vehicle's driver reads its
    /// own vehicle, round robin. Returns the run and the share of the machine's time stolen meanwhile.
    private func measureReads(project: String, port: Int, tokensFile: String, folder: String) async throws -> (
        load: Wrk.Result, stolenPercent: Double?
    ) {
        func load(seconds: Int) async throws -> Wrk.Result {
            try await Wrk.run(
                url: "http://127.0.0.1:\(port)", connections: connections, threads: clientThreads, seconds: seconds,
                script: "fleet-engine-reads.lua",
                arguments: [project, tokensFile, String(clientThreads)], folder: folder)
        }
        _ = try await load(seconds: 1)
        let hostBefore = HostCPU.now()
        let result = try await load(seconds: seconds)
        return (result, HostCPU.stolenPercent(from: hostBefore, to: HostCPU.now()))
    }

    /// The Node.js competitor of the REST runs: durable updates and authenticated reads of the
    /// same vehicles with the same tokens, nothing else (see the script).
    static let nodeScript = "node/fleet-engine.mjs"

    /// Where the competitor reads what it trusts and serves, and where it logs its updates.
    struct NodeFixtures {
        let file: String
        let log: String
    }

    /// Writes the competitor's fixtures: the trusted accounts' key files, the vehicles, its log.
    private static func writeNodeFixtures(project: String, keys: [ServiceAccountKey], vehicles: Int, folder: String)
        throws -> NodeFixtures
    {
        let keyFiles = try keys.enumerated().map { index, key in
            let path = folder + "/competitor-key-\(index).json"
            guard
                FileManager.default.createFile(
                    atPath: path, contents: key.jsonRepresentation(), attributes: [.posixPermissions: 0o600])
            else {
                throw CommandFailure("cannot write \(path)")
            }
            return path
        }
        let fixtures = NodeFixtures(file: folder + "/competitor.json", log: folder + "/competitor-updates.log")
        let document: [String: Any] = [
            "project": project, "keyFiles": keyFiles, "vehicles": (0..<vehicles).map(vehicleID), "log": fixtures.log,
        ]
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: fixtures.file))
        return fixtures
    }

    /// One run of updates and one of reads on the Node.js competitor, started afresh (its log
    /// emptied) for the round, under the same load as the engine's REST runs.
    private func measureNode(
        project: String, fixtures: NodeFixtures, tokens: [String], tokensFile: String, run: Int, folder: String,
        on group: any EventLoopGroup
    ) async throws -> (updates: Run, readsPerSecond: Double) {
        try? FileManager.default.removeItem(atPath: fixtures.log)
        let server = try await ServerProcess.start(
            name: "Node.js", arguments: ["node", try BenchmarkFiles.path(Self.nodeScript), fixtures.file],
            port: ServerProcess.listeningPort)
        defer { server.stop() }
        try await Self.checkTokens(project: project, port: server.port, tokens: tokens, on: group)
        let (load, cpuSeconds, stolenPercent) = try await measure(
            project: project, port: server.port, tokensFile: tokensFile, run: run, folder: folder,
            serverCPUSeconds: server.cpuSeconds)
        let updates = Self.run(
            load.succeeded, load.failed, load.seconds, load.latency, cpuSeconds: cpuSeconds,
            stolenPercent: stolenPercent,
            durability: try Self.durability(of: Self.acknowledged(load), run: run, log: fixtures.log))
        let (reads, _) = try await measureReads(
            project: project, port: server.port, tokensFile: tokensFile, folder: folder)
        return (updates, Double(reads.succeeded) / reads.seconds)
    }

    /// Checks that the server on `port` checks tokens as the engine does: the first vehicle's
    /// driver reads its vehicle and is refused the second (403).
    private static func checkTokens(project: String, port: Int, tokens: [String], on group: any EventLoopGroup)
        async throws
    {
        for (vehicle, expected) in [(0, "200"), (1, "HTTP 403")] {
            let tally = try await HTTPLoad.run(
                host: "127.0.0.1", port: port, connections: 1, duration: .seconds(10), requestsPerConnection: 1,
                on: group
            ) { _, _ in
                HTTPLoad.Request(
                    head: head(
                        .GET, "/v1/providers/\(project)/vehicles/\(vehicleID(vehicle))", token: tokens[0], length: 0),
                    body: nil)
            }
            let answered = tally.succeeded == 1 ? "200" : tally.firstFailure ?? "nothing"
            guard answered == expected else {
                throw CommandFailure(
                    "the competitor answered \(answered) where the engine answers \(expected) (a driver reading vehicle \(vehicle))"
                )
            }
        }
    }

    /// ``durability(of:run:project:store:)`` for the competitor: its log's last line for each vehicle.
    private static func durability(of acknowledged: [Int: ClosedRange<Int>], run: Int, log: String) throws -> (
        checked: Int, durable: Int
    ) {
        var latitudes: [String: Double] = [:]
        for line in try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n") {
            guard let record = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let name = record["name"] as? String,
                let latitude = ((record["lastLocation"] as? [String: Any])?["location"] as? [String: Any])?["latitude"]
                    as? Double
            else { throw CommandFailure("the competitor's log has a line that is not an update") }
            latitudes[String(name.split(separator: "/").last ?? "")] = latitude
        }
        return durability(of: acknowledged, run: run) { latitudes[$0] }
    }

    /// By vehicle, the highest step answered with 200 and the last step sent, as the script
    /// reported them.
    private static func acknowledged(_ load: Wrk.Result) -> [Int: ClosedRange<Int>] {
        var steps: [Int: ClosedRange<Int>] = [:]
        for line in load.reportLines {
            let numbers = line.split(separator: " ").compactMap { Int($0) }
            if numbers.count == 3, numbers[1] <= numbers[2] { steps[numbers[0]] = numbers[1]...numbers[2] }
        }
        return steps
    }

    /// How many vehicles the run acknowledged updates for, and for how many of them the store
    /// holds the last acknowledged update or a later one sent (`acknowledged`: from the highest
    /// step answered with 200 to the last step sent, by vehicle; wrk stops with one update per
    /// vehicle in flight at most, which the engine may still have saved).
    private func durability(
        of acknowledged: [Int: ClosedRange<Int>], run: Int, project: String, store: SQLEngineStore,
        delivery: Bool = false
    ) async throws -> (checked: Int, durable: Int) {
        let snapshot = try await store.load(provider: project)
        return Self.durability(of: acknowledged, run: run) { vehicleID in
            delivery
                ? snapshot.deliveryVehicles[vehicleID]?.lastLocation.location.latitude
                : snapshot.vehicles[vehicleID]?.lastLocation.location.latitude
        }
    }

    /// How many vehicles `acknowledged` names, and for how many the stored `latitude` (by
    /// vehicle id; `nil` when none is stored) is one of the steps that may have been saved.
    private static func durability(
        of acknowledged: [Int: ClosedRange<Int>], run: Int, latitude: (String) -> Double?
    ) -> (checked: Int, durable: Int) {
        let durable = acknowledged.filter { index, steps in
            latitude(vehicleID(index)).map { steps.contains(Int((($0 - Double(10 + run)) * 1e7).rounded())) } ?? false
        }
        return (acknowledged.count, durable.count)
    }

    /// A request head with a bearer token and a JSON body of `length` bytes.
    static func head(_ method: HTTPMethod, _ uri: String, token: String, length: Int) -> HTTPRequestHead {
        HTTPRequestHead(
            version: .http1_1, method: method, uri: uri,
            headers: [
                "Host": "127.0.0.1", "Authorization": "Bearer \(token)", "Content-Type": "application/json",
                "Content-Length": String(length),
            ])
    }

    private static func table(_ report: Report) -> String {
        func row(_ name: String, _ runs: [Run], _ median: Double, target: Double?) -> String {
            let p50 = Throughput.median(runs.map(\.p50Milliseconds)),
                p99 = Throughput.median(runs.map(\.p99Milliseconds))
            let cpu = Throughput.median(runs.map(\.cpuMicrosecondsPerUpdate))
            let serverCPU = Throughput.median(runs.map(\.serverCPUMicrosecondsPerUpdate))
            let durable =
                runs.allSatisfy { $0.vehiclesChecked == 0 }
                ? "(not stored)"
                : runs.allSatisfy { $0.vehiclesDurable == $0.vehiclesChecked } ? "all" : "NOT ALL"
            let verdict = target.map { median >= $0 ? "  >= \(Int($0))/s ok" : "  >= \(Int($0))/s MISSED" } ?? ""
            return name.padding(toLength: 22, withPad: " ", startingAt: 0)
                + String(format: "%9.0f %8.2f %8.2f %9.0f %9.0f ", median, p50, p99, cpu, serverCPU)
                + stolen(runs.map(\.stolenPercent)) + "   " + durable + verdict
        }
        return [
            "local Fleet Engine: \(report.vehicles) vehicles, \(report.connections) connections, \(report.secondsPerRun) s runs, "
                + "\(report.cached.count) rounds (medians), \(report.database), each answer after its commit",
            "run                   updates/s   p50 ms   p99 ms  CPU µs/update (server)  stolen   stored == last acknowledged",
            row("cached driver tokens", report.cached, report.cachedMedianUpdatesPerSecond, target: target),
            row("every token verified", report.uncached, report.uncachedMedianUpdatesPerSecond, target: nil),
            row(
                "cached, harness on", report.harnessCached,
                Throughput.median(report.harnessCached.map(\.updatesPerSecond)), target: nil),
            row(
                "delivery, cached tokens", report.deliveryCached, report.deliveryCachedMedianUpdatesPerSecond,
                target: nil),
            row("gRPC, cached tokens", report.grpcCached, report.grpcCachedMedianUpdatesPerSecond, target: nil),
            row("gRPC, every verified", report.grpcUncached, report.grpcUncachedMedianUpdatesPerSecond, target: nil),
            row(
                "gRPC on grpc-swift's", report.grpcOnGRPCSwiftCached,
                Throughput.median(report.grpcOnGRPCSwiftCached.map(\.updatesPerSecond)), target: nil),
            row(
                "gRPC delivery, cached", report.grpcDeliveryCached, report.grpcDeliveryCachedMedianUpdatesPerSecond,
                target: nil),
            row(
                "gRPC floor (no engine)", report.grpcFloor, Throughput.median(report.grpcFloor.map(\.updatesPerSecond)),
                target: nil),
            row("Node.js competitor", report.node, Throughput.median(report.node.map(\.updatesPerSecond)), target: nil),
            String(
                format:
                    "with the console and its test harness on (no fault, clock untouched), cached updates are %.3f× of without (target >= 0.97)",
                report.harnessToPlainRatio),
            String(
                format:
                    "gRPC cached updates are %.2f× of REST cached updates and %.2f× of the gRPC floor (medians over rounds of the same round's ratio)",
                report.grpcToRESTRatio, report.grpcToFloorRatio),
            String(
                format:
                    "gRPC cached updates on the door's own transport are %.2f× of those on grpc-swift's (HTTP2ServerTransport.Posix; the ledger keeps it at >= 1.30)",
                report.grpcDoorToGRPCSwiftRatio),
            String(
                format:
                    "delivery vehicles' cached updates (untrusted delivery driver tokens) are %.2f× of vehicles' over REST and %.2f× over gRPC (target >= 0.90)",
                report.deliveryToVehicleRatio, report.grpcDeliveryToVehicleRatio),
            String(
                format:
                    "reference: authenticated GET of a vehicle %9.0f/s (the engine's floor on this host now; stolen %@); cached updates are %.2f× of it",
                report.readsMedianPerSecond, stolen(report.readsStolenPercent).trimmingCharacters(in: .whitespaces),
                report.updatesToReadsRatio),
            String(
                format: "Node.js competitor (%@, a log file): authenticated GET %9.0f/s; its updates are %.2f× of it",
                nodeScript, Throughput.median(report.nodeReadsPerSecond), report.nodeUpdatesToReadsRatio),
            String(
                format: "verification per request: cached %.0f ns, uncached %.1f µs (one thread)",
                report.verifyCachedNanoseconds, report.verifyUncachedNanoseconds / 1000),
            "CPU µs/update counts the server and the load generator (wrk; for gRPC `update-load`, on gRPC's C++ core) together, "
                + "(server) the server alone; stolen is the machine's time the hypervisor gave to other guests.",
        ].joined(separator: "\n")
    }

    /// The median stolen share of `runs`, as a column ("–" where unknown).
    private static func stolen(_ runs: [Double?]) -> String {
        let known = runs.compactMap { $0 }
        return known.count == runs.count && !known.isEmpty
            ? String(format: "%6.1f %%", Throughput.median(known)) : "     –  "
    }
}
