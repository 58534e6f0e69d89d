import FleetAuthServerHTTP
import FleetAuthServerStorage
import Foundation
import Logging
import NIOPosix
import SQLKit
import TestSupport
import Testing

@testable import LocalFleetEngine

/// The SQL store, on SQLite and PostgreSQL, and the group-commit writer in front of it.
@Suite("Vehicle and trip store")
struct StoreTests {
    static let vehicle = Vehicle(
        vehicleState: .online, supportedTripTypes: [.exclusive],
        lastLocation: VehicleLocation(at: LatLng(latitude: 52.5, longitude: 13.4), heading: 90),
        maximumCapacity: 4, attributes: [VehicleAttribute(key: "colour", stringValue: "blue")], category: .taxi)
    static let trip = Trip(
        vehicleID: "v1", tripStatus: .new, tripType: .shared, pickup: LatLng(latitude: 1, longitude: 2))

    /// Runs `body` with the state of provider `p` over a ``FaultyStore`` in a new SQLite file,
    /// vehicle `v1` (``vehicle``) saved in it.
    static func withVehicle(_ body: (EngineState, FaultyStore, SQLEngineStore) async throws -> Void) async throws {
        try await TestDatabases.withStore(at: TestDatabases.sqlite()) { sql in
            let store = FaultyStore(sql)
            let state = try await EngineState(store: store, provider: "p", logger: Logger(label: "test"))
            _ = try await state.createVehicle("v1", Self.vehicle).saved()
            try await body(state, store, sql)
        }
    }

    /// Without PostgreSQL its case is skipped, except in CI, where it fails (``TestDatabase``).
    @Test(arguments: StoreBackend.allCases)
    func savesAndLoads(on backend: StoreBackend) async throws {
        try await TestDatabase.with(backend) { database in
            try await Self.roundTrip(at: database.location)
            try await Self.largeBatch(at: database.location)
            try await Self.deletions(at: database.location)
        }
    }

    /// A database written by a version that kept each resource as proto3 JSON opens with every
    /// vehicle and trip it held, of every provider; the old tables are gone after, and the rows
    /// hold binary messages.
    @Test(arguments: StoreBackend.allCases)
    func opensWhatEarlierVersionsSavedAsJSON(on backend: StoreBackend) async throws {
        try await TestDatabase.with(backend) { database in
            let provider = "json-\(UUID().uuidString.prefix(8))"
            let opened = try await ServerDatabase.open(database.location, logger: Logger(label: "test-store"))
            for (table, idColumn) in [
                (JSONDocumentTables.vehicles, "vehicle_id"), (JSONDocumentTables.trips, "trip_id"),
            ] {
                try await opened.sql.raw(
                    "CREATE TABLE \(unsafeRaw: table) (provider TEXT NOT NULL, \(unsafeRaw: idColumn) TEXT NOT NULL, document TEXT NOT NULL, PRIMARY KEY (provider, \(unsafeRaw: idColumn)))"
                ).run()
            }
            for (owner, id) in [(provider, "v1"), ("\(provider)-other", "v2")] {
                try await opened.sql.raw(
                    "INSERT INTO \(unsafeRaw: JSONDocumentTables.vehicles) VALUES (\(bind: owner), \(bind: id), \(bind: try Self.vehicle.jsonString()))"
                ).run()
            }
            try await opened.sql.raw(
                "INSERT INTO \(unsafeRaw: JSONDocumentTables.trips) VALUES (\(bind: provider), 't1', \(bind: try Self.trip.jsonString()))"
            ).run()

            try await TestDatabases.withStore(at: database.location) { store async throws in
                #expect(
                    try await store.load(provider: provider)
                        == ProviderSnapshot(vehicles: ["v1": Self.vehicle], trips: ["t1": Self.trip]))
                #expect(
                    try await store.load(provider: "\(provider)-other")
                        == ProviderSnapshot(vehicles: ["v2": Self.vehicle])
                )
            }
            for table in [JSONDocumentTables.vehicles, JSONDocumentTables.trips] {
                await #expect(throws: (any Error).self, "\(table) is still there") {
                    try await opened.sql.raw("SELECT 1 FROM \(unsafeRaw: table)").run()
                }
            }
            if backend == .sqlite {
                let kinds = try await opened.sql.raw(
                    "SELECT DISTINCT typeof(message) AS kind FROM \(unsafeRaw: ResourceTable.vehicles.name)"
                ).all()
                #expect(try kinds.map { try $0.decode(column: "kind", as: String.self) } == ["blob"])
            }
            // Opened again, there is nothing left to move and nothing lost.
            try await TestDatabases.withStore(at: database.location) { store in
                #expect(try await store.load(provider: provider).vehicles.count == 1)
                try await store.removeAll(provider: provider)
                try await store.removeAll(provider: "\(provider)-other")
            }
            await opened.shutdown()
        }
    }

    /// Saves and loads; the later of two records for one resource wins; providers stay apart,
    /// also when one provider's resources are all removed.
    static func roundTrip(at location: DatabaseLocation) async throws {
        let provider = "store-\(UUID().uuidString.prefix(8))"
        var moved = vehicle
        moved.lastLocation.location = LatLng(latitude: -33.86, longitude: 151.21)
        try await TestDatabases.withStore(at: location) { store in
            try await store.save(
                [.vehicle(id: "v1", vehicle), .trip(id: "t1", trip), .vehicle(id: "v1", moved)], provider: provider)
            try await store.save([.vehicle(id: "v1", vehicle), .trip(id: "t1", trip)], provider: "\(provider)-other")
        }
        try await TestDatabases.withStore(at: location) { store in
            #expect(
                try await store.load(provider: provider)
                    == ProviderSnapshot(vehicles: ["v1": moved], trips: ["t1": trip]))
            try await store.removeAll(provider: provider)
            #expect(try await store.load(provider: provider) == ProviderSnapshot())
            #expect(
                try await store.load(provider: "\(provider)-other")
                    == ProviderSnapshot(vehicles: ["v1": vehicle], trips: ["t1": trip]))
            try await store.removeAll(provider: "\(provider)-other")
        }
    }

    /// A deletion removes the resource; within a batch the later record of a resource wins.
    static func deletions(at location: DatabaseLocation) async throws {
        let provider = "delete-\(UUID().uuidString.prefix(8))"
        try await TestDatabases.withStore(at: location) { store in
            try await store.save(
                [
                    .vehicle(id: "v1", vehicle), .vehicle(id: "v2", vehicle), .trip(id: "t1", trip),
                    .trip(id: "t2", trip),
                ], provider: provider)
            try await store.save(
                [
                    .deletedVehicle(id: "v1"), .vehicle(id: "v2", vehicle), .deletedVehicle(id: "v2"),
                    .deletedTrip(id: "t1"),
                    .deletedTrip(id: "t2"), .trip(id: "t2", trip), .vehicle(id: "v3", vehicle),
                ], provider: provider)
            #expect(
                try await store.load(provider: provider)
                    == ProviderSnapshot(vehicles: ["v3": vehicle], trips: ["t2": trip]))
            try await store.removeAll(provider: provider)
        }
    }

    /// A batch larger than one statement is saved whole.
    static func largeBatch(at location: DatabaseLocation) async throws {
        let provider = "batch-\(UUID().uuidString.prefix(8))"
        let count = SQLEngineStore.rowsPerStatement * 2 + 7
        try await TestDatabases.withStore(at: location) { store in
            try await store.save((0..<count).map { .vehicle(id: "v\($0)", vehicle) }, provider: provider)
            #expect(try await store.load(provider: provider).vehicles.count == count)
        }
    }

    /// Random batches of changes to every kind, removals among them, through a journal folded
    /// every few rows: what loads, also in a store opened again, is always the model of the
    /// changes; the journal never outgrows its limit by more than a batch, and once folded the
    /// tables alone hold everything.
    @Test(arguments: StoreBackend.allCases)
    func journalFoldsLoseNothing(on backend: StoreBackend) async throws {
        try await TestDatabase.with(backend) { testDatabase in
            let provider = "journal-\(UUID().uuidString.prefix(8))", limit = 5, largestBatch = 6
            let database = try await ServerDatabase.open(testDatabase.location, logger: Logger(label: "test-store"))
            func journalLength() async throws -> Int {
                var rows = 0
                for table in ResourceTable.allCases { rows += try await count(table.journal) }
                return rows
            }
            func count(_ table: String) async throws -> Int {
                try await database.sql.raw(
                    "SELECT COUNT(*) AS rows FROM \(unsafeRaw: table) WHERE provider = \(bind: provider)"
                ).first()?
                .decode(column: "rows", as: Int.self) ?? -1
            }
            var random = SeededRandom(state: 35)
            var model = ProviderSnapshot()
            var folds = 0
            for _ in 0..<3 {
                let store = SQLEngineStore(database: database, journalLimit: limit)
                try await store.prepare()
                #expect(try await store.load(provider: provider) == model)
                for _ in 0..<40 {
                    let batch = (0..<Int.random(in: 1...largestBatch, using: &random)).map { _ in
                        Self.randomRecord(using: &random)
                    }
                    for record in batch { model.apply(record) }
                    try await store.save(batch, provider: provider)
                    let journal = try await journalLength()
                    #expect(journal < limit + largestBatch)
                    if journal == 0 {
                        folds += 1
                        #expect(try await count(ResourceTable.vehicles.name) == model.vehicles.count)
                        #expect(try await count(ResourceTable.tasks.name) == model.tasks.count)
                    }
                }
                #expect(try await store.load(provider: provider) == model)
            }
            #expect(folds >= 10, "only \(folds) folds")
            try await SQLEngineStore(database: database).removeAll(provider: provider)
            #expect(try await journalLength() == 0)
            await database.shutdown()
        }
    }

    /// A change to one of a few resources of any kind: a new version of it, or its removal.
    static func randomRecord(using random: inout SeededRandom) -> ResourceChange {
        let id = "r\(Int.random(in: 0..<6, using: &random))", version = Double(Int.random(in: 0..<1000, using: &random))
        let removed = Int.random(in: 0..<4, using: &random) == 0
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            var moved = vehicle
            moved.lastLocation.location = LatLng(latitude: version / 100, longitude: 1)
            return removed ? .deletedVehicle(id: id) : .vehicle(id: id, moved)
        case 1:
            var changed = trip
            changed.pickupPoint.point = LatLng(latitude: version / 100, longitude: 2)
            return removed ? .deletedTrip(id: id) : .trip(id: id, changed)
        case 2:
            var deliveryVehicle = DeliveryVehicle()
            deliveryVehicle.lastLocation.location = LatLng(latitude: version / 100, longitude: 3)
            return removed ? .deletedDeliveryVehicle(id: id) : .deliveryVehicle(id: id, deliveryVehicle)
        default:
            var task = DeliveryTask()
            task.deliveryVehicleID = "r\(Int(version) % 6)"
            return removed ? .deletedTask(id: id) : .task(id: id, task)
        }
    }

    @Test func groupCommitBatchesConcurrentWritesAndAcknowledgesOnlySavedOnes() async throws {
        try await Self.withVehicle { state, store, sql in
            let updates = 500
            store.hold()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<updates {
                    group.addTask {
                        var update = Vehicle()
                        update.lastLocation = VehicleLocation(at: LatLng(latitude: Double(index) / 100, longitude: 1))
                        _ = try await state.updateVehicle("v1", with: update, fields: [.lastLocation]).saved()
                    }
                }
                try await waitUntil { store.waiting == 1 }
                try await waitUntil { state.acceptedWriteCount == UInt64(updates + 1) }
                #expect(store.savedRecords == 1, "an update was acknowledged before it was saved")
                store.release()
                try await group.waitForAll()
            }
            #expect(store.savedRecords == updates + 1)
            #expect(
                store.saves <= 3,
                "\(store.saves) saves for the creation and \(updates) concurrent updates: at most one held, one for the rest"
            )
            let saved = try await sql.load(provider: "p").vehicles["v1"]
            #expect(saved != nil)
            #expect(saved == state.vehicle("v1"))
        }
    }

    @Test func aFailedSaveFailsItsWritesAndShowsNothingOfThem() async throws {
        try await Self.withVehicle { state, store, sql in
            store.failNextSave()
            var update = Vehicle()
            update.lastLocation = VehicleLocation(at: LatLng(latitude: 10, longitude: 10))
            await #expect(
                throws: APIError(
                    .unavailable, "the change could not be saved and was not made; try again", retryAfter: .seconds(1))
            ) {
                try await state.updateVehicle("v1", with: update, fields: [.lastLocation]).saved()
            }
            #expect(state.vehicle("v1")?.lastLocation.location == Self.vehicle.lastLocation.location)
            #expect(
                try await sql.load(provider: "p").vehicles["v1"]?.lastLocation.location
                    == Self.vehicle.lastLocation.location)
            await #expect(throws: APIError.self) { try await state.createVehicle("v1", Self.vehicle).saved() }
            let moved = try await state.updateVehicle("v1", with: update, fields: [.lastLocation]).saved()
            #expect(moved.lastLocation.location == LatLng(latitude: 10, longitude: 10))
        }
    }

    /// What a location update read on an event loop does: accepted there, and its batch taken
    /// there once the loop has handled the rest of what it read, all of it in one save.
    @Test func writesAcceptedOnAnEventLoopAreSavedInOneBatch() async throws {
        try await Self.withVehicle { state, store, sql in
            #expect(store.saves == 1, "the vehicle's creation")
            let loop = MultiThreadedEventLoopGroup.singleton.next()
            let accepted = try await loop.submit {
                try (1...10).map { step in
                    try state.updateVehicle(
                        "v1",
                        with: Vehicle(lastLocation: VehicleLocation(at: LatLng(latitude: Double(step), longitude: 1))),
                        fields: [.lastLocation])
                }
            }.get()
            for write in accepted { _ = try await write.saved() }
            #expect(store.saves == 2, "ten writes of one turn of the loop took \(store.saves - 1) saves")
            #expect(try await sql.load(provider: "p").vehicles["v1"]?.lastLocation.location.latitude == 10)
        }
    }

    /// While a batch's save waits (another writer holds the lock), what the loop accepts
    /// meanwhile is saved after it, in order.
    @Test func writesAcceptedDuringASaveAreSavedAfterItInOrder() async throws {
        try await Self.withVehicle { state, store, sql in
            store.hold()
            let loop = MultiThreadedEventLoopGroup.singleton.next()
            func move(to latitude: Double) async throws -> Accepted<Vehicle> {
                try await loop.submit {
                    try state.updateVehicle(
                        "v1",
                        with: Vehicle(lastLocation: VehicleLocation(at: LatLng(latitude: latitude, longitude: 1))),
                        fields: [.lastLocation])
                }.get()
            }
            let first = try await move(to: 20)
            try await waitUntil { store.waiting == 1 }
            let second = try await move(to: 30)
            #expect(state.vehicle("v1")?.lastLocation.location.latitude == 52.5, "an unsaved write is visible")
            store.release()
            #expect(try await first.saved().lastLocation.location.latitude == 20)
            #expect(try await second.saved().lastLocation.location.latitude == 30)
            #expect(state.vehicle("v1")?.lastLocation.location.latitude == 30)
            #expect(try await sql.load(provider: "p").vehicles["v1"]?.lastLocation.location.latitude == 30)
            #expect(store.saves >= 3, "the creation, the held batch, the one after it")
        }
    }

    @Test func readsWaitForDurability() async throws {
        try await TestDatabases.withStore(at: TestDatabases.sqlite()) { sql in
            let store = FaultyStore(sql)
            let state = try await EngineState(store: store, provider: "p", logger: Logger(label: "test"))
            store.hold()
            let creating = Task { try await state.createVehicle("v1", Self.vehicle).saved() }
            try await waitUntil { store.waiting == 1 }
            #expect(state.vehicle("v1") == nil, "an unsaved vehicle is visible")
            await #expect(throws: APIError.self) { try await state.createVehicle("v1", Self.vehicle).saved() }
            store.release()
            _ = try await creating.value
            #expect(state.vehicle("v1") != nil)
        }
    }

    @Test func aWritesResultShowsTheTripsAcceptedBeforeIt() async throws {
        try await Self.withVehicle { state, store, sql in
            let move = Vehicle(lastLocation: VehicleLocation(at: LatLng(latitude: 1, longitude: 1)))

            // A trip accepted but not yet saved, then a location update of its vehicle.
            store.hold()
            let creatingTrip = Task { try await state.createTrip("t1", Self.trip).saved() }
            try await waitUntil { store.waiting == 1 }
            let moving = Task { try await state.updateVehicle("v1", with: move, fields: [.lastLocation]).saved() }
            try await waitUntil { state.acceptedWriteCount == 3 }
            store.release()
            _ = try await creatingTrip.value
            #expect(try await moving.value.currentTrips == ["t1"])

            // The trip's completion, not yet saved, then another update.
            store.hold()
            let completing = Task {
                try await state.updateTrip(
                    "t1", with: Trip(tripStatus: .complete), fields: [.tripStatus], decision: .allowed(.full)
                ).saved()
            }
            try await waitUntil { store.waiting == 1 }
            let movingAgain = Task { try await state.updateVehicle("v1", with: move, fields: [.lastLocation]).saved() }
            try await waitUntil { state.acceptedWriteCount == 5 }
            #expect(state.vehicle("v1")?.currentTrips == ["t1"], "reads show saved state only")
            store.release()
            _ = try await completing.value
            #expect(try await movingAgain.value.currentTrips.isEmpty)
        }
    }

    @Test func currentTripsFollowTripStatus() async throws {
        try await TestDatabases.withStore(at: TestDatabases.sqlite()) { sql in
            let state = try await EngineState(store: sql, provider: "p", logger: Logger(label: "test"))
            _ = try await state.createVehicle("v1", Self.vehicle).saved()
            _ = try await state.createTrip("t1", Self.trip).saved()
            _ = try await state.createTrip("t2", Self.trip).saved()
            #expect(state.vehicle("v1")?.currentTrips == ["t1", "t2"])
            _ = try await state.updateTrip(
                "t1", with: Trip(tripStatus: .complete), fields: [.tripStatus], decision: .allowed(.full)
            ).saved()
            #expect(state.vehicle("v1")?.currentTrips == ["t2"])
            let reloaded = try await EngineState(store: sql, provider: "p", logger: Logger(label: "test"))
            #expect(reloaded.vehicle("v1")?.currentTrips == ["t2"])
        }
    }
}

extension ProviderSnapshot {
    /// Makes the change `record` stands for: the model a store's saves are checked against.
    mutating func apply(_ record: ResourceChange) {
        switch record {
        case .vehicle(let id, let vehicle): vehicles[id] = vehicle
        case .deletedVehicle(let id): vehicles[id] = nil
        case .trip(let id, let trip): trips[id] = trip
        case .deletedTrip(let id): trips[id] = nil
        case .deliveryVehicle(let id, let vehicle): deliveryVehicles[id] = vehicle
        case .deletedDeliveryVehicle(let id): deliveryVehicles[id] = nil
        case .task(let id, let task): tasks[id] = task
        case .deletedTask(let id): tasks[id] = nil
        }
    }
}
