import ArgumentParser
import CommandSupport
import FleetAuthServerHTTP
import FleetAuthServerStorage
import FleetTokens
import Foundation
import LocalFleetEngine
import Logging
import SwiftProtobuf

/// `fleetauth-bench fleet-engine-scale`: what the local Fleet Engine's reads and updates cost
/// as the fleet grows. For each fleet size, a fresh SQLite store is filled with that many
/// vehicles spread over a 45 × 45 km city (a tenth of them on a trip, a tenth offline) and an
/// engine is started on it; then, over loopback REST, the median of single GetVehicle,
/// SearchVehicles (2 km, 10 results) and ListVehicles (a page of 100 ONLINE vehicles) calls,
/// location updates per second from wrk on the same 1,000 vehicles at every size (`rounds`
/// rounds, the sizes taking turns, every other round in the other order; the ratio is the
/// median of the rounds'), and vehicles created
/// per second through the gRPC door by gRPC's C++ core (``GRPCVehicleCreation``). The smallest
/// fleet is the reference: the targets are ratios to it, measured in the same run.
struct FleetEngineScaleBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet-engine-scale",
        abstract:
            "Local Fleet Engine at city scale: read latency, update rate, start-up and memory per vehicle by fleet size."
    )

    @Option(parsing: .upToNextOption, help: "Fleet sizes; the first is the reference.")
    var sizes = [1_000, 10_000, 100_000]

    @Option(help: "Calls of each read per size; medians are reported.")
    var calls = 200

    @Option(help: "Seconds of each run of location updates.")
    var seconds = 5

    @Option(
        help:
            "Rounds of location updates, each size once per round (every other round in the other order); medians are reported."
    )
    var rounds = 4

    @Option(help: "Vehicles created through the gRPC door at each size, after the other measurements.")
    var creations = 20_000

    @Option(help: "The gRPC vehicle creator, built by Benchmarks/grpc-cpp/build.sh.")
    var grpcCreate = ".build-grpc-cpp/create-load"

    @Flag(help: "Print JSON.")
    var json = false

    /// Vehicles that get location updates, at every size.
    static let movingVehicles = 1_000
    /// The city's side, in meters, and its south-west corner.
    static let citySide = 45_000.0
    static let southWest = (latitude: 52.3, longitude: 13.1)

    /// What one fleet size measured.
    struct SizeReport: Encodable {
        let vehicles: Int
        let startUpSeconds: Double
        /// How much the engine's start grew this process's resident memory.
        let engineResidentBytes: Int
        let getVehicleMilliseconds: Double
        let searchVehiclesMilliseconds: Double
        let listVehiclesMilliseconds: Double
        let searchMatches: Int
        let updatesPerSecond: Double
        /// Each round's updates per second.
        let updateRuns: [Double]
        let failedUpdates: Int
        /// Vehicles created per second through the gRPC door, durable.
        let creationsPerSecond: Double
        let failedCreations: Int
    }

    struct Report: Encodable {
        let sizes: [SizeReport]
        /// Each size's time over the reference size's.
        let searchRatio: Double
        let listRatio: Double
        let getRatio: Double
        /// The largest fleet's update rate over the reference's: the median over the rounds, in
        /// each of which every size ran once.
        let updateRatio: Double
        /// The engine's memory per vehicle: the growth of its resident memory from the first
        /// size to the largest over the growth of the fleet (fixed costs cancel out).
        let bytesPerVehicle: Double
    }

    func validate() throws {
        guard sizes.count >= 2, sizes.allSatisfy({ $0 >= Self.movingVehicles }), calls >= 1, seconds >= 1, rounds >= 1,
            creations >= 1
        else {
            throw ValidationError(
                "give at least two --sizes of at least \(Self.movingVehicles) vehicles; --calls --seconds, --rounds and --creations at least 1"
            )
        }
        guard FileManager.default.isExecutableFile(atPath: grpcCreate) else {
            throw ValidationError(
                "no gRPC vehicle creator at \(grpcCreate): build it with Benchmarks/grpc-cpp/build.sh")
        }
    }

    func run() async throws {
        var logger = Logger(label: "bench.fleet-engine-scale", factory: DeferredMetadataLogHandler.standardError)
        logger.logLevel = .warning
        // Every size's engine runs at once, so that the update runs of the sizes can take turns:
        // a drift in the machine's speed then touches them alike.
        var fleets: [ScaleFleet] = []
        let reports: [SizeReport]
        let updateRatios: [Double]
        do {
            for size in sizes {
                fleets.append(try await ScaleFleet.start(vehicles: size, logger: logger))
                if !json { FileHandle.standardError.write(Data("\(size) vehicles started\n".utf8)) }
            }
            let reads = try await measureReads(of: fleets)
            var rates = [[Double]](repeating: [], count: fleets.count),
                failedUpdates = [Int](repeating: 0, count: fleets.count)
            for run in 1...rounds {
                // Every other round in the other order, so that going first or last favours no size.
                for index in run.isMultiple(of: 2) ? Array(fleets.indices.reversed()) : Array(fleets.indices) {
                    let fleet = fleets[index]
                    let updates = try await Wrk.run(
                        url: "http://127.0.0.1:\(fleet.engine.port)", connections: 100, threads: 1, seconds: seconds,
                        script: "fleet-engine-updates.lua",
                        arguments: [fleet.project, String(run), fleet.tokensFile, "1"], folder: fleet.folder)
                    rates[index].append(Double(updates.succeeded) / updates.seconds)
                    failedUpdates[index] += updates.failed
                }
            }
            updateRatios = zip(rates[rates.count - 1], rates[0]).map { $0 / $1 }
            let center = Self.point(east: Self.citySide / 2, north: Self.citySide / 2)
            var built: [SizeReport] = []
            for (index, fleet) in fleets.enumerated() {
                let creation = try await GRPCVehicleCreation.run(
                    program: grpcCreate, port: fleet.grpcPort, project: fleet.project, tokenFile: fleet.serverTokenFile,
                    count: creations,
                    connections: 4, streams: 64, at: center)
                built.append(
                    SizeReport(
                        vehicles: fleet.vehicles, startUpSeconds: fleet.startUp.seconds,
                        engineResidentBytes: fleet.engineResidentBytes,
                        getVehicleMilliseconds: reads[index].get, searchVehiclesMilliseconds: reads[index].search,
                        listVehiclesMilliseconds: reads[index].list, searchMatches: reads[index].matches,
                        updatesPerSecond: Throughput.median(rates[index]), updateRuns: rates[index],
                        failedUpdates: failedUpdates[index],
                        creationsPerSecond: Double(creation.succeeded) / creation.seconds,
                        failedCreations: creation.failed))
            }
            reports = built
        } catch {
            for fleet in fleets { await fleet.stop() }
            throw error
        }
        for fleet in fleets { await fleet.stop() }

        let reference = reports[0], largest = reports[reports.count - 1]
        let report = Report(
            sizes: reports,
            searchRatio: largest.searchVehiclesMilliseconds / reference.searchVehiclesMilliseconds,
            listRatio: largest.listVehiclesMilliseconds / reference.listVehiclesMilliseconds,
            getRatio: largest.getVehicleMilliseconds / reference.getVehicleMilliseconds,
            updateRatio: Throughput.median(updateRatios),
            bytesPerVehicle: Double(largest.engineResidentBytes - reference.engineResidentBytes)
                / Double(largest.vehicles - reference.vehicles))
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(Self.table(report))
        }
        guard reports.allSatisfy({ $0.failedUpdates == 0 && $0.failedCreations == 0 && $0.searchMatches > 0 }) else {
            throw CommandFailure(
                "updates or creations failed, or a search found nothing: the run measured the wrong thing")
        }
    }

    /// One fleet size: its store, filled, and an engine running on it with both doors.
    private struct ScaleFleet {
        let vehicles: Int
        let project: String
        let serverToken: String
        /// The server token, alone on a line.
        let serverTokenFile: String
        /// The driver tokens of the vehicles that move, one per line.
        let tokensFile: String
        let folder: String
        let engine: RunningService
        let grpcPort: Int
        let database: ServerDatabase
        let lock: DataDirectoryLock
        /// From the engine's start to its listening, the store loaded and the indexes built.
        let startUp: Duration
        /// How much the engine's start grew this process's resident memory.
        let engineResidentBytes: Int

        static func start(vehicles: Int, logger: Logger) async throws -> ScaleFleet {
            let project = BenchProvider.named("bench-scale")
            let serverKey = try ServiceAccountKey.generate(projectID: project, role: .serviceSuperUser)
            let driverKey = try ServiceAccountKey.generate(projectID: project, role: .driverSDKUser)
            let accounts = [
                TrustedServiceAccount(key: serverKey, role: .serviceSuperUser),
                TrustedServiceAccount(key: driverKey, role: .driverSDKUser),
            ]
            let driverMinter = try TokenMinter(key: driverKey)
            let folder = try BenchFolder.create()
            let tokensFile = folder + "/driver-tokens"
            let tokens = try (0..<FleetEngineScaleBench.movingVehicles).map {
                try driverMinter.mint(.driver(vehicleID: FleetEngineScaleBench.vehicleID($0))).token
            }
            let serverToken = try TokenMinter(key: serverKey).mint(.server).token
            let serverTokenFile = folder + "/server-token"
            for (file, lines) in [(tokensFile, tokens), (serverTokenFile, [serverToken])] {
                guard
                    FileManager.default.createFile(
                        atPath: file, contents: Data(lines.joined(separator: "\n").utf8),
                        attributes: [.posixPermissions: 0o600])
                else {
                    BenchFolder.remove(folder)
                    throw CommandFailure("cannot write \(file)")
                }
            }
            let (database, lock) = try await EngineDatabase.open(
                dataDirectory: folder, databaseURL: nil, logger: logger)
            let store = SQLEngineStore(database: database)
            try await FleetEngineScaleBench.fill(store, project: project, vehicles: vehicles)

            let residentBefore = FleetEngineScaleBench.residentBytes()
            let started = ContinuousClock.now
            let (grpcPorts, grpcStarted) = AsyncStream.makeStream(of: Int.self)
            let engine = try await RunningService.start(logger: logger) { onStarted in
                LocalFleetEngine(
                    configuration: .init(
                        projectID: project, trustedAccounts: accounts, port: 0, grpcPort: 0, onStarted: onStarted,
                        onGRPCStarted: { grpcStarted.yield($0) }),
                    store: store, logger: logger)
            }
            let startUp = ContinuousClock.now - started
            return ScaleFleet(
                vehicles: vehicles, project: project, serverToken: serverToken, serverTokenFile: serverTokenFile,
                tokensFile: tokensFile,
                folder: folder, engine: engine, grpcPort: await grpcPorts.first { _ in true } ?? 0, database: database,
                lock: lock,
                startUp: startUp, engineResidentBytes: FleetEngineScaleBench.residentBytes() - residentBefore)
        }

        func stop() async {
            await engine.stop()
            await database.shutdown()
            lock.release()
            BenchFolder.remove(folder)
        }
    }

    /// For each fleet, the median milliseconds of single calls of each read and how many
    /// vehicles a search found; the fleets take turns call by call, so that a drift in the
    /// machine's speed touches them alike.
    private func measureReads(of fleets: [ScaleFleet]) async throws -> [(
        get: Double, search: Double, list: Double, matches: Int
    )] {
        let center = Self.point(east: Self.citySide / 2, north: Self.citySide / 2)
        let search = """
            {"pickupPoint":{"point":{"latitude":\(center.latitude),"longitude":\(center.longitude)}},"pickupRadiusMeters":2000,"count":10,\
            "minimumCapacity":1,"tripTypes":["EXCLUSIVE"],"vehicleTypes":[{"category":"AUTO"}],"orderBy":"PICKUP_POINT_ETA",\
            "maximumStaleness":"3600s"}
            """
        func call(_ fleet: ScaleFleet, _ method: String, _ path: String, body: String = "") async throws -> (
            milliseconds: Double, response: RawHTTP.Response
        ) {
            let head = [
                "\(method) /v1/providers/\(fleet.project)\(path) HTTP/1.1", "Host: 127.0.0.1",
                "Authorization: Bearer \(fleet.serverToken)",
                "Content-Type: application/json", "Content-Length: \(body.utf8.count)", "Connection: close",
            ]
            let started = ContinuousClock.now
            let response = try await RawHTTP.exchange(port: fleet.engine.port, head: head, body: body)
            let elapsed = ContinuousClock.now - started
            guard response.status == 200 else { throw CommandFailure("\(method) \(path): \(response.status)") }
            return (elapsed.seconds * 1000, response)
        }
        var get = [[Double]](repeating: [], count: fleets.count), searches = get, lists = get
        var matches = [Int](repeating: 0, count: fleets.count)
        for index in 0..<calls {
            for (turn, fleet) in fleets.enumerated() {
                get[turn].append(
                    try await call(fleet, "GET", "/vehicles/\(Self.vehicleID(index * 7919 % Self.movingVehicles))")
                        .milliseconds)
                let searched = try await call(fleet, "POST", "/vehicles:search", body: search)
                searches[turn].append(searched.milliseconds)
                matches[turn] =
                    searched.response.body.components(separatedBy: "\"vehiclePickupStraightLineDistanceMeters\"").count
                    - 1
                lists[turn].append(
                    try await call(
                        fleet, "GET", "/vehicles?vehicleTypeCategories=AUTO&vehicleState=ONLINE&pageSize=100"
                    ).milliseconds)
            }
        }
        return fleets.indices.map {
            (Throughput.median(get[$0]), Throughput.median(searches[$0]), Throughput.median(lists[$0]), matches[$0])
        }
    }

    /// Saves `vehicles` vehicles in `store`, spread evenly at random over the city; every tenth
    /// offline, every tenth (of the others) on a trip.
    fileprivate static func fill(_ store: SQLEngineStore, project: String, vehicles: Int) async throws {
        var random = SystemRandomNumberGenerator()
        let now = Google_Protobuf_Timestamp(date: Date())
        var records: [ResourceChange] = []
        for index in 0..<vehicles {
            let id = vehicleID(index)
            let vehicle = Vehicle.with { vehicle in
                vehicle.vehicleState = index % 10 == 9 ? .offline : .online
                vehicle.supportedTripTypes = [.exclusive]
                vehicle.maximumCapacity = 4
                vehicle.vehicleType = .with { $0.category = .auto }
                vehicle.lastLocation = .with { location in
                    location.location = point(
                        east: .random(in: 0..<citySide, using: &random),
                        north: .random(in: 0..<citySide, using: &random))
                    location.serverTime = now
                }
            }
            records.append(.vehicle(id: id, vehicle))
            if index % 10 == 4 {
                records.append(
                    .trip(
                        id: "trip-\(index)",
                        Trip.with { trip in
                            trip.vehicleID = id
                            trip.tripStatus = .enrouteToPickup
                            trip.tripType = .exclusive
                            trip.pickupPoint = .with { $0.point = vehicle.lastLocation.location }
                        }))
            }
            if records.count >= 4096 {
                try await store.save(records, provider: project)
                records.removeAll(keepingCapacity: true)
            }
        }
        try await store.save(records, provider: project)
    }

    static func vehicleID(_ index: Int) -> String { "bench-\(index)" }

    /// The point `east` and `north` meters from the city's south-west corner.
    private static func point(east: Double, north: Double) -> LatLng {
        let metersPerDegree = 111_195.0
        return LatLng(
            latitude: southWest.latitude + north / metersPerDegree,
            longitude: southWest.longitude + east / (metersPerDegree * cos(southWest.latitude * .pi / 180)))
    }

    /// This process's resident memory, in bytes (Linux; 0 elsewhere).
    fileprivate static func residentBytes() -> Int {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
            let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    private static func table(_ report: Report) -> String {
        func format(_ value: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", value) }
        var lines = [
            "| vehicles | GetVehicle ms | SearchVehicles ms (matches) | ListVehicles page ms | updates/s | gRPC creations/s | start-up s | engine memory MB |",
            "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for size in report.sizes {
            lines.append(
                "| \(size.vehicles) | \(format(size.getVehicleMilliseconds)) | \(format(size.searchVehiclesMilliseconds)) (\(size.searchMatches)) | "
                    + "\(format(size.listVehiclesMilliseconds)) | \(format(size.updatesPerSecond, 0)) | \(format(size.creationsPerSecond, 0)) | \(format(size.startUpSeconds)) | \(format(Double(size.engineResidentBytes) / 1e6, 1)) |"
            )
        }
        lines.append("")
        lines.append(
            "largest / first: SearchVehicles \(format(report.searchRatio))× (target ≤ 1.5), ListVehicles page \(format(report.listRatio))× (target ≤ 1.5), "
                + "GetVehicle \(format(report.getRatio))× (flat), updates \(format(report.updateRatio))× (target ≥ 0.95); "
                + "memory per vehicle \(format(report.bytesPerVehicle, 0)) bytes")
        return lines.joined(separator: "\n")
    }
}
