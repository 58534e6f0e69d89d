/// What reads show of a provider's delivery vehicles and tasks: everything saved, with the
/// indexes that make a listing page, a vehicle's tasks, a tracking id's tasks, the tasks of a
/// state or the vehicles of an attribute cost what they return. Part of ``SavedState``, read
/// under ``EngineState``'s lock.
struct SavedDeliveries: Sendable {
    private(set) var vehicles: [String: DeliveryVehicle] = [:]
    private(set) var tasks: [String: DeliveryTask] = [:]
    /// Every delivery vehicle's id, in order.
    private(set) var vehicleIDs = SortedIDs()
    /// Every task's id, in order.
    private(set) var taskIDs = SortedIDs()
    /// The ids of the tasks by vehicle, tracking id and state (``TaskListing/indexedFields``).
    private(set) var taskIndex = FieldIndex()
    /// The ids of the delivery vehicles by each attribute's value (fields `attributes.KEY`).
    private(set) var vehicleIndex = FieldIndex()

    /// The saved delivery vehicles and tasks of a snapshot.
    init(vehicles: [String: DeliveryVehicle], tasks: [String: DeliveryTask]) {
        for (id, vehicle) in vehicles { publish(vehicle: vehicle, id: id) }
        for (id, task) in tasks { publish(task: task, id: id) }
    }

    /// The ids of the tasks of `trackingID`, in order, after `id` (`nil`: from the first).
    func taskIDs(trackedAs trackingID: String, after id: String? = nil) -> SortedIDs.Iterator? {
        taskIndex.ids(where: "trackingId", is: trackingID)?.ids(after: id)
    }

    /// Makes a saved delivery vehicle (or its deletion, `nil`) visible.
    mutating func publish(vehicle: DeliveryVehicle?, id: String) {
        let old = vehicles[id]
        if vehicle == nil { vehicleIDs.remove(id) } else if old == nil { vehicleIDs.insert(id) }
        let oldValues = Dictionary(
            (old?.attributes ?? []).map { ("attributes.\($0.key)", $0.filterText) },
            uniquingKeysWith: { first, _ in first })
        let newValues = Dictionary(
            (vehicle?.attributes ?? []).map { ("attributes.\($0.key)", $0.filterText) },
            uniquingKeysWith: { first, _ in first })
        for field in Set(oldValues.keys).union(newValues.keys) {
            vehicleIndex.move(id, field: field, from: oldValues[field], to: newValues[field])
        }
        vehicles[id] = vehicle
    }

    /// Makes a saved task (or its deletion, `nil`) visible.
    mutating func publish(task: DeliveryTask?, id: String) {
        let old = tasks[id]
        if task == nil { taskIDs.remove(id) } else if old == nil { taskIDs.insert(id) }
        for field in TaskListing.indexedFields {
            taskIndex.move(
                id, field: field, from: old.flatMap { TaskListing.value(of: field, in: $0) },
                to: task.flatMap { TaskListing.value(of: field, in: $0) })
        }
        tasks[id] = task
    }
}
