import FleetAuthServerStorage

/// Where the local Fleet Engine keeps its vehicles, trips, delivery vehicles and tasks so that they outlive the process.
///
/// The engine holds the live state in memory (``EngineState``) and hands the store every
/// change before it acknowledges it; the store must have made the change durable when
/// ``save(_:provider:)`` returns.
package protocol EngineStore: Sendable {
    /// Every resource of `provider`, as last saved.
    func load(provider: String) async throws -> ProviderSnapshot

    /// Saves `records` of `provider` in one transaction: all of them, or none (then it throws).
    /// When a resource appears twice, the later record (a new version or its removal) wins.
    func save(_ records: [ResourceChange], provider: String) async throws

    /// Whether changes can be saved now, for `/healthz`.
    func health() async -> DatabaseHealth
}

/// The saved vehicles, trips, delivery vehicles and tasks of one provider, by id.
package struct ProviderSnapshot: Sendable, Hashable {
    /// Vehicles by vehicle id.
    package var vehicles: [String: Vehicle]
    /// Trips by trip id.
    package var trips: [String: Trip]
    /// Delivery vehicles by id.
    package var deliveryVehicles: [String: DeliveryVehicle]
    /// Tasks by task id.
    package var tasks: [String: DeliveryTask]

    /// Creates a snapshot.
    package init(
        vehicles: [String: Vehicle] = [:], trips: [String: Trip] = [:],
        deliveryVehicles: [String: DeliveryVehicle] = [:], tasks: [String: DeliveryTask] = [:]
    ) {
        self.vehicles = vehicles
        self.trips = trips
        self.deliveryVehicles = deliveryVehicles
        self.tasks = tasks
    }
}

extension ProviderSnapshot {
    /// Whether it holds no resource at all.
    package var isEmpty: Bool {
        vehicles.isEmpty && trips.isEmpty && deliveryVehicles.isEmpty && tasks.isEmpty
    }

    /// Every resource as a record to save, by kind and then id.
    package var records: [ResourceChange] {
        vehicles.sorted { $0.key < $1.key }.map { ResourceChange.vehicle(id: $0.key, $0.value) }
            + trips.sorted { $0.key < $1.key }.map { .trip(id: $0.key, $0.value) }
            + deliveryVehicles.sorted { $0.key < $1.key }.map { .deliveryVehicle(id: $0.key, $0.value) }
            + tasks.sorted { $0.key < $1.key }.map { .task(id: $0.key, $0.value) }
    }
}

/// One change to save: a resource, whole, or its removal.
package enum ResourceChange: Sendable, Hashable {
    /// A vehicle and its id.
    case vehicle(id: String, Vehicle)
    /// A trip and its id.
    case trip(id: String, Trip)
    /// The removal of a vehicle.
    case deletedVehicle(id: String)
    /// The removal of a trip.
    case deletedTrip(id: String)
    /// A delivery vehicle and its id.
    case deliveryVehicle(id: String, DeliveryVehicle)
    /// A task and its id.
    case task(id: String, DeliveryTask)
    /// The removal of a delivery vehicle.
    case deletedDeliveryVehicle(id: String)
    /// The removal of a task.
    case deletedTask(id: String)
}
