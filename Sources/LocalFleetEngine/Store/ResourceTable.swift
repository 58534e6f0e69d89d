import SwiftProtobuf

/// The tables of ``SQLEngineStore``, one per kind of resource, each row a resource's message in
/// protobuf's binary format under its provider and id.
enum ResourceTable: CaseIterable, Hashable {
    case vehicles, trips, deliveryVehicles, tasks

    /// The table's name.
    var name: String {
        switch self {
        case .vehicles: "fleet_engine_vehicle_messages"
        case .trips: "fleet_engine_trip_messages"
        case .deliveryVehicles: "fleet_engine_delivery_vehicle_messages"
        case .tasks: "fleet_engine_task_messages"
        }
    }

    /// The table of the kind's journal (``ResourceJournal``).
    var journal: String {
        switch self {
        case .vehicles: "fleet_engine_vehicle_journal"
        case .trips: "fleet_engine_trip_journal"
        case .deliveryVehicles: "fleet_engine_delivery_vehicle_journal"
        case .tasks: "fleet_engine_task_journal"
        }
    }

    /// The column of the resource's id.
    var idColumn: String {
        switch self {
        case .vehicles: "vehicle_id"
        case .trips: "trip_id"
        case .deliveryVehicles: "delivery_vehicle_id"
        case .tasks: "task_id"
        }
    }
}

extension ResourceChange {
    /// Where the record is saved: its table, its id, and the resource (`nil`: its removal).
    var row: (table: ResourceTable, id: String, resource: (any SwiftProtobuf.Message)?) {
        switch self {
        case .vehicle(let id, let vehicle): (.vehicles, id, vehicle)
        case .trip(let id, let trip): (.trips, id, trip)
        case .deliveryVehicle(let id, let vehicle): (.deliveryVehicles, id, vehicle)
        case .task(let id, let task): (.tasks, id, task)
        case .deletedVehicle(let id): (.vehicles, id, nil)
        case .deletedTrip(let id): (.trips, id, nil)
        case .deletedDeliveryVehicle(let id): (.deliveryVehicles, id, nil)
        case .deletedTask(let id): (.tasks, id, nil)
        }
    }
}
