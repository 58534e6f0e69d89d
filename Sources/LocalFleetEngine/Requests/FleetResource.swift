/// What the core needs to know to create and update a kind of resource (vehicles, trips,
/// delivery vehicles, tasks) the
/// same way: what its id is called, its name, its operations and its rules.
protocol FleetResource: Sendable {
    /// The fields an `updateMask` may name.
    associatedtype Field: UpdatableField

    /// The body's `name`, which must agree with the request path when set (not empty).
    var name: String { get }
    /// The request field with a new resource's id, e.g. `vehicleId` (REST's query parameter).
    static var idField: String { get }
    /// The kind of resource in messages, e.g. `vehicle`.
    static var kind: String { get }
    /// The resource's name, e.g. `providers/{provider}/vehicles/{id}`.
    static func resourceName(provider: String, id: String) -> String
    /// The operation that creates resource `id`.
    static func creation(id: String) -> FleetOperation
    /// The operation that updates `fields` of resource `id`.
    static func update(id: String, fields: Set<Field>) -> FleetOperation
    /// Refuses a new resource that breaks a rule.
    func validateForCreation() throws(InvalidArgument)
    /// Refuses an update of `fields` that breaks a rule.
    func validateUpdate(of fields: Set<Field>) throws(InvalidArgument)
    /// Copies `field` of `source` into `target`.
    static func copy(_ field: Field, from source: Self, to target: inout Self)
}

extension FleetResource {
    /// This resource with the values of `fields` taken from `update` (an `updateMask` applied).
    func applying(_ update: Self, fields: Set<Field>) -> Self {
        var result = self
        for field in fields { Self.copy(field, from: update, to: &result) }
        return result
    }
}

extension Vehicle: FleetResource {
    static let idField = "vehicleId"
    static let kind = "vehicle"
    static func resourceName(provider: String, id: String) -> String {
        ResourceName.vehicle(provider: provider, id: id)
    }
    static func creation(id: String) -> FleetOperation { .createVehicle(vehicleID: id) }
    static func update(id: String, fields: Set<VehicleField>) -> FleetOperation {
        .updateVehicle(vehicleID: id, fields: fields)
    }
}

extension Trip: FleetResource {
    static let idField = "tripId"
    static let kind = "trip"
    static func resourceName(provider: String, id: String) -> String { ResourceName.trip(provider: provider, id: id) }
    static func creation(id: String) -> FleetOperation { .createTrip(tripID: id) }
    static func update(id: String, fields: Set<TripField>) -> FleetOperation { .updateTrip(tripID: id, fields: fields) }
}

extension DeliveryVehicle: FleetResource {
    static let idField = "deliveryVehicleId"
    static let kind = "delivery vehicle"
    static func resourceName(provider: String, id: String) -> String {
        ResourceName.deliveryVehicle(provider: provider, id: id)
    }
    static func creation(id: String) -> FleetOperation { .delivery(.createDeliveryVehicle(vehicleID: id)) }
    static func update(id: String, fields: Set<DeliveryVehicleField>) -> FleetOperation {
        .delivery(.updateDeliveryVehicle(vehicleID: id, fields: fields))
    }
}

extension DeliveryTask: FleetResource {
    static let idField = "taskId"
    static let kind = "task"
    static func resourceName(provider: String, id: String) -> String { ResourceName.task(provider: provider, id: id) }
    static func creation(id: String) -> FleetOperation { .delivery(.createTask(taskID: id)) }
    static func update(id: String, fields: Set<TaskField>) -> FleetOperation { .delivery(.updateTask(taskID: id)) }
}
