import ArgumentParser
import FleetAuthServerHTTP
import Foundation
import LocalFleetEngine
import Logging

/// `fleetauth-bench fleet-store`: what saving location updates costs the local Fleet Engine's
/// store alone (no HTTP), in batches of the sizes its group commit makes: CPU time of the
/// whole process per saved update, and saves per second of wall-clock time.
struct FleetStoreBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet-store",
        abstract:
            "Local Fleet Engine store: CPU time per saved location update, by batch size (SQLite unless --database-url)."
    )

    @Option(help: "Vehicles in the store; each batch updates distinct ones picked at random.")
    var vehicles = 1000

    @Option(parsing: .upToNextOption, help: "Updates per transaction (one run each).")
    var batchSizes = [1, 100]

    @Option(help: "Seconds per run.")
    var seconds = 3.0

    @Option(help: "Rounds of runs over every batch size; medians are reported.")
    var rounds = 3

    @Option(
        help:
            "A PostgreSQL URL to store vehicles in instead of a temporary SQLite file (the run deletes its rows at the end)."
    )
    var databaseURL: String?

    func validate() throws {
        guard vehicles >= 1 else { throw ValidationError("--vehicles must be at least 1") }
        guard !batchSizes.isEmpty, batchSizes.allSatisfy({ (1...vehicles).contains($0) }) else {
            throw ValidationError("every --batch-sizes value must be from 1 to --vehicles")
        }
        guard seconds > 0, (1...39).contains(rounds) else {
            throw ValidationError("--seconds must be positive, --rounds 1 to 39")
        }
    }

    func run() async throws {
        let folder = try BenchFolder.create()
        defer { BenchFolder.remove(folder) }
        var logger = Logger(label: "bench.fleet-store", factory: DeferredMetadataLogHandler.standardError)
        logger.logLevel = .warning
        let (database, lock) = try await EngineDatabase.open(
            dataDirectory: folder, databaseURL: databaseURL, logger: logger)
        defer { lock.release() }
        let store = SQLEngineStore(database: database)
        let project = BenchProvider.named("bench-store")
        var results: [Int: (cpu: [Double], rate: [Double])] = [:]
        do {
            try await store.save(
                (0..<vehicles).map {
                    .vehicle(id: FleetEngineBench.vehicleID($0), Self.vehicle(project: project, index: $0, step: 0))
                }, provider: project)
            // Made before timing: the vehicles of each batch are distinct ones picked at random,
            // each moved one step; the batches are saved in turn, over and over.
            var batches: [Int: [[ResourceChange]]] = [:]
            for size in batchSizes {
                batches[size] = (1...Self.batchesPerSize).map { step in
                    (0..<vehicles).shuffled().prefix(size).map {
                        ResourceChange.vehicle(
                            id: FleetEngineBench.vehicleID($0), Self.vehicle(project: project, index: $0, step: step))
                    }
                }
            }
            for _ in 1...rounds {
                for size in batchSizes {
                    let runBatches = batches[size, default: []]
                    var saved = 0
                    let (cpuStart, wallStart) = (Throughput.processCPUSeconds(), ContinuousClock.now)
                    repeat {
                        try await store.save(runBatches[saved / size % runBatches.count], provider: project)
                        saved += size
                    } while ContinuousClock.now - wallStart < .seconds(seconds)
                    let wallSeconds = (ContinuousClock.now - wallStart).timeInterval
                    results[size, default: ([], [])].cpu.append(
                        (Throughput.processCPUSeconds() - cpuStart) / Double(saved) * 1e6)
                    results[size, default: ([], [])].rate.append(Double(saved) / wallSeconds)
                }
            }
        } catch {
            await BenchProvider.remove(project, from: store, thenClose: database, logger: logger)
            throw error
        }
        await BenchProvider.remove(project, from: store, thenClose: database, logger: logger)
        print(
            "local Fleet Engine store: \(vehicles) vehicles, \(database.location.kind.rawValue), \(rounds) rounds of \(seconds) s (medians)"
        )
        print("batch size   CPU µs/update   updates/s")
        for size in batchSizes {
            let result = results[size] ?? ([], [])
            print(
                String(
                    format: "%10d %15.1f %11.0f", size, Throughput.median(result.cpu), Throughput.median(result.rate)))
        }
    }

    /// Batches made for each size.
    private static let batchesPerSize = 64

    /// A vehicle as the engine stores it after a location update.
    private static func vehicle(project: String, index: Int, step: Int) -> Vehicle {
        var vehicle = Vehicle()
        vehicle.name = ResourceName.vehicle(provider: project, id: FleetEngineBench.vehicleID(index))
        vehicle.vehicleState = .online
        vehicle.supportedTripTypes = [.exclusive]
        vehicle.lastLocation.location = LatLng(latitude: 10 + Double(step) / 1e7, longitude: 13.405)
        vehicle.lastLocation.heading = .init(90)
        vehicle.lastLocation.speed = .init(8.5)
        vehicle.lastLocation.updateTime = .init(date: Date(timeIntervalSince1970: 1_795_000_000))
        vehicle.lastLocation.serverTime = .init(date: Date())
        vehicle.maximumCapacity = 4
        vehicle.vehicleType.category = .auto
        return vehicle
    }
}
