import ArgumentParser
import CommandSupport
import FleetAuthServerHTTP
import FleetAuthServerStorage
import FleetTokens
import Foundation
import LocalFleetEngine
import Logging

/// `fleetauth-bench deliveries`: what the local Fleet Engine's delivery reads cost as the
/// number of tasks grows, and how fast BatchCreateTasks creates them. For each size, a fresh
/// SQLite store is filled with that many tasks, ten per delivery vehicle on five stops, two
/// per tracking id (every vehicle with a `zone` attribute of ten values), and an engine is
/// started on it; then, over loopback REST, the median of single ListTasks calls filtered by
/// `delivery_vehicle_id`, by `tracking_id` and by `state` (a page of 100), of
/// GetTaskTrackingInfo, and of ListDeliveryVehicles filtered by `attributes.zone` (a page of
/// 100), the sizes taking turns call by call. The smallest size is the
/// reference: the targets are ratios to it, measured in the same run. Last, batches of 500
/// tasks are created through the smallest engine's REST door, one after another.
struct DeliveryScaleBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deliveries",
        abstract:
            "Local Fleet Engine deliveries: ListTasks and GetTaskTrackingInfo latency by number of tasks; BatchCreateTasks tasks/s."
    )

    @Option(parsing: .upToNextOption, help: "Numbers of tasks; the first is the reference.")
    var sizes = [10_000, 200_000]

    @Option(help: "Calls of each read per size; medians are reported.")
    var calls = 200

    @Option(help: "Batches of 500 tasks created, one after another.")
    var batches = 40

    @Flag(help: "Print JSON.")
    var json = false

    static let tasksPerVehicle = 10
    static let batchSize = 500

    /// What one size measured.
    struct SizeReport: Encodable {
        let tasks: Int
        let listByVehicleMilliseconds: Double
        let listByTrackingIDMilliseconds: Double
        let listByStateMilliseconds: Double
        let trackingInfoMilliseconds: Double
        let listVehiclesByAttributeMilliseconds: Double
    }

    struct Report: Encodable {
        let sizes: [SizeReport]
        /// The largest size's time over the reference's, for each read (target ≤ 1.5).
        let listByVehicleRatio: Double
        let listByTrackingIDRatio: Double
        let listByStateRatio: Double
        let trackingInfoRatio: Double
        let listVehiclesByAttributeRatio: Double
        let batchCreateTasksPerSecond: Double
    }

    func validate() throws {
        guard sizes.count >= 2, sizes.allSatisfy({ $0 >= Self.tasksPerVehicle }), calls >= 1, batches >= 1 else {
            throw ValidationError(
                "give at least two --sizes of at least \(Self.tasksPerVehicle) tasks, and --calls and --batches of at least 1"
            )
        }
    }

    func run() async throws {
        var logger = Logger(label: "bench.deliveries", factory: DeferredMetadataLogHandler.standardError)
        logger.logLevel = .warning
        var engines: [DeliveryEngine] = []
        do {
            for size in sizes { engines.append(try await DeliveryEngine.start(tasks: size, logger: logger)) }
            let reads = try await measureReads(of: engines)
            let batchRate = try await measureBatches(on: engines[0])
            for engine in engines { await engine.stop() }
            let report = Report(
                sizes: zip(sizes, reads).map {
                    SizeReport(
                        tasks: $0, listByVehicleMilliseconds: $1.vehicle, listByTrackingIDMilliseconds: $1.tracking,
                        listByStateMilliseconds: $1.state, trackingInfoMilliseconds: $1.info,
                        listVehiclesByAttributeMilliseconds: $1.attribute)
                },
                listByVehicleRatio: reads[reads.count - 1].vehicle / reads[0].vehicle,
                listByTrackingIDRatio: reads[reads.count - 1].tracking / reads[0].tracking,
                listByStateRatio: reads[reads.count - 1].state / reads[0].state,
                trackingInfoRatio: reads[reads.count - 1].info / reads[0].info,
                listVehiclesByAttributeRatio: reads[reads.count - 1].attribute / reads[0].attribute,
                batchCreateTasksPerSecond: batchRate)
            if json { try JSONOutput.print(report) } else { print(Self.table(report)) }
        } catch {
            for engine in engines { await engine.stop() }
            throw error
        }
    }

    /// One size: a store filled with its tasks and an engine serving it.
    private struct DeliveryEngine {
        let tasks: Int
        let project: String
        let serverToken: String
        let folder: String
        let engine: RunningService
        let database: ServerDatabase
        let lock: DataDirectoryLock

        static func start(tasks: Int, logger: Logger) async throws -> DeliveryEngine {
            let project = BenchProvider.named("bench-deliveries")
            let serverKey = try ServiceAccountKey.generate(projectID: project, role: .deliverySuperUser)
            let folder = try BenchFolder.create()
            let (database, lock) = try await EngineDatabase.open(
                dataDirectory: folder, databaseURL: nil, logger: logger)
            try await DeliveryScaleBench.fill(SQLEngineStore(database: database), project: project, tasks: tasks)
            let engine = try await RunningService.start(logger: logger) { onStarted in
                LocalFleetEngine(
                    configuration: .init(
                        projectID: project,
                        trustedAccounts: [TrustedServiceAccount(key: serverKey, role: .deliverySuperUser)],
                        port: 0, grpcPort: nil, onStarted: onStarted),
                    store: SQLEngineStore(database: database), logger: logger)
            }
            return DeliveryEngine(
                tasks: tasks, project: project,
                serverToken: try TokenMinter(key: serverKey).mint(.deliveryServer).token, folder: folder,
                engine: engine, database: database, lock: lock)
        }

        /// `method path` with the server token; the milliseconds it took and the answer.
        func call(_ method: String, _ path: String, body: String = "") async throws -> (
            milliseconds: Double, response: RawHTTP.Response
        ) {
            let head = [
                "\(method) /v1/providers/\(project)\(path) HTTP/1.1", "Host: 127.0.0.1",
                "Authorization: Bearer \(serverToken)",
                "Content-Type: application/json", "Content-Length: \(body.utf8.count)", "Connection: close",
            ]
            let started = ContinuousClock.now
            let response = try await RawHTTP.exchange(port: engine.port, head: head, body: body)
            let elapsed = ContinuousClock.now - started
            guard response.status == 200 else {
                throw CommandFailure("\(method) \(path): \(response.status) \(response.body.prefix(200))")
            }
            return (elapsed.seconds * 1000, response)
        }

        func stop() async {
            await engine.stop()
            await database.shutdown()
            lock.release()
            BenchFolder.remove(folder)
        }
    }

    /// For each size, the median milliseconds of each read; the sizes take turns call by call,
    /// so that a drift in the machine's speed touches them alike. Each call names a vehicle or
    /// shipment of its own, spread over the whole size.
    private func measureReads(of engines: [DeliveryEngine]) async throws -> [(
        vehicle: Double, tracking: Double, state: Double, info: Double, attribute: Double
    )] {
        var byVehicle = [[Double]](repeating: [], count: engines.count), byTracking = byVehicle, byState = byVehicle,
            info = byVehicle
        var byAttribute = byVehicle
        for index in 0..<calls {
            for (turn, engine) in engines.enumerated() {
                let vehicle = index * 7919 % (engine.tasks / Self.tasksPerVehicle)
                let shipment = index * 104_729 % (engine.tasks / 2)
                let listed = try await engine.call(
                    "GET", "/tasks?filter=delivery_vehicle_id%3D%22\(Self.vehicleID(vehicle))%22&pageSize=100")
                guard listed.response.body.components(separatedBy: "\"name\"").count - 1 == Self.tasksPerVehicle else {
                    throw CommandFailure(
                        "ListTasks of \(Self.vehicleID(vehicle)) did not list its \(Self.tasksPerVehicle) tasks")
                }
                byVehicle[turn].append(listed.milliseconds)
                byTracking[turn].append(
                    try await engine.call("GET", "/tasks?filter=tracking_id%3D\(Self.trackingID(shipment))")
                        .milliseconds)
                info[turn].append(
                    try await engine.call("GET", "/taskTrackingInfo/\(Self.trackingID(shipment))").milliseconds)
                byState[turn].append(
                    try await engine.call("GET", "/tasks?filter=state%3DOPEN&pageSize=100").milliseconds)
                byAttribute[turn].append(
                    try await engine.call(
                        "GET", "/deliveryVehicles?filter=attributes.zone%3D\(index % 10)&pageSize=100"
                    ).milliseconds)
            }
        }
        return engines.indices.map {
            (
                Throughput.median(byVehicle[$0]), Throughput.median(byTracking[$0]), Throughput.median(byState[$0]),
                Throughput.median(info[$0]),
                Throughput.median(byAttribute[$0])
            )
        }
    }

    /// Tasks per second of `batches` BatchCreateTasks calls of ``batchSize`` new tasks each,
    /// one after another, each answered once saved.
    private func measureBatches(on engine: DeliveryEngine) async throws -> Double {
        let task =
            #"{"type":"DELIVERY","state":"OPEN","trackingId":"batch","taskDuration":"60s","plannedLocation":{"point":{"latitude":52.5,"longitude":13.4}}}"#
        var elapsed = 0.0
        for batch in 0..<batches {
            let requests = (0..<Self.batchSize).map { #"{"taskId":"batch-\#(batch)-\#($0)","task":\#(task)}"# }
            elapsed += try await engine.call(
                "POST", "/tasks:batchCreate", body: #"{"requests":[\#(requests.joined(separator: ","))]}"#
            ).milliseconds
        }
        return Double(batches * Self.batchSize) / (elapsed / 1000)
    }

    /// Saves `tasks` tasks in `store`: delivery vehicle `bench-v` holds tasks `task-v-0` …
    /// `task-v-9`, two per stop, and tasks 2k and 2k+1 share tracking id `shipment-k`.
    fileprivate static func fill(_ store: SQLEngineStore, project: String, tasks: Int) async throws {
        var records: [ResourceChange] = []
        for vehicle in 0..<(tasks / tasksPerVehicle) {
            let ids = (0..<tasksPerVehicle).map { "task-\(vehicle)-\($0)" }
            let place = LatLng.with {
                $0.latitude = 52.3 + Double(vehicle % 400) / 1000;
                $0.longitude = 13.1 + Double(vehicle / 400 % 400) / 1000
            }
            for (offset, id) in ids.enumerated() {
                records.append(
                    .task(
                        id: id,
                        DeliveryTask.with { task in
                            task.name = "providers/\(project)/tasks/\(id)"
                            task.type = offset.isMultiple(of: 2) ? .pickup : .delivery
                            task.state = .open
                            task.trackingID = trackingID((vehicle * tasksPerVehicle + offset) / 2)
                            task.deliveryVehicleID = vehicleID(vehicle)
                            task.taskDuration = .with { $0.seconds = 120 }
                            task.plannedLocation = .with { $0.point = place }
                        }))
            }
            records.append(
                .deliveryVehicle(
                    id: vehicleID(vehicle),
                    DeliveryVehicle.with { van in
                        van.name = "providers/\(project)/deliveryVehicles/\(vehicleID(vehicle))"
                        van.type = .auto
                        van.lastLocation = .with { $0.location = place }
                        van.attributes = [
                            .with {
                                $0.key = "zone"; $0.stringValue = String(vehicle % 10)
                            }
                        ]
                        van.remainingVehicleJourneySegments = stride(from: 0, to: ids.count, by: 2).map { first in
                            .with { segment in
                                segment.stop = .with { stop in
                                    stop.state = first == 0 ? .enroute : .new
                                    stop.plannedLocation = .with { $0.point = place }
                                    stop.tasks = ids[first..<first + 2].map { id in .with { $0.taskID = id } }
                                }
                            }
                        }
                    }))
            if records.count >= 4096 {
                try await store.save(records, provider: project)
                records.removeAll(keepingCapacity: true)
            }
        }
        try await store.save(records, provider: project)
    }

    static func vehicleID(_ index: Int) -> String { "bench-\(index)" }
    static func trackingID(_ index: Int) -> String { "shipment-\(index)" }

    private static func table(_ report: Report) -> String {
        func format(_ value: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", value) }
        var lines = [
            "| tasks | ListTasks by vehicle ms | ListTasks by tracking id ms | ListTasks by state ms | GetTaskTrackingInfo ms | ListDeliveryVehicles by attribute ms |",
            "| ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for size in report.sizes {
            lines.append(
                "| \(size.tasks) | \(format(size.listByVehicleMilliseconds)) | \(format(size.listByTrackingIDMilliseconds)) | "
                    + "\(format(size.listByStateMilliseconds)) | \(format(size.trackingInfoMilliseconds)) | \(format(size.listVehiclesByAttributeMilliseconds)) |"
            )
        }
        lines.append("")
        lines.append(
            "largest / first: ListTasks by vehicle \(format(report.listByVehicleRatio))×, by tracking id \(format(report.listByTrackingIDRatio))×, "
                + "by state \(format(report.listByStateRatio))×, GetTaskTrackingInfo \(format(report.trackingInfoRatio))×, "
                + "ListDeliveryVehicles by attribute \(format(report.listVehiclesByAttributeRatio))× (targets ≤ 1.5); "
                + "BatchCreateTasks of \(batchSize): \(format(report.batchCreateTasksPerSecond, 0)) tasks/s")
        return lines.joined(separator: "\n")
    }
}
