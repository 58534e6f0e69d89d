/// What reads show of a provider's delivery vehicles and tasks: everything saved, with the
/// indexes that make a listing page, a vehicle's tasks or a tracking id's tasks cost what they
/// return. Part of ``SavedFleet``, read under ``FleetState``'s lock.
struct SavedDeliveries: Sendable {
    private(set) var vehicles: [String: DeliveryVehicle] = [:]
    private(set) var tasks: [String: DeliveryTask] = [:]
    /// Every delivery vehicle's id, in order.
    private(set) var vehicleIDs = SortedIDs()
    /// Every task's id, in order.
    private(set) var taskIDs = SortedIDs()
    /// The ids of the tasks assigned to each vehicle.
    private var tasksByVehicle: [String: SortedIDs] = [:]
    /// The ids of the tasks of each tracking id.
    private var tasksByTrackingID: [String: SortedIDs] = [:]

    /// The saved delivery vehicles and tasks of a snapshot.
    init(vehicles: [String: DeliveryVehicle], tasks: [String: DeliveryTask]) {
        for (id, vehicle) in vehicles { publish(vehicle: vehicle, id: id) }
        for (id, task) in tasks { publish(task: task, id: id) }
    }

    /// The ids of the tasks assigned to `vehicleID`, in order, after `id` (`nil`: from the first).
    func taskIDs(ofVehicle vehicleID: String, after id: String? = nil) -> SortedIDs.Iterator? {
        tasksByVehicle[vehicleID]?.ids(after: id)
    }

    /// The ids of the tasks of `trackingID`, in order, after `id` (`nil`: from the first).
    func taskIDs(trackedAs trackingID: String, after id: String? = nil) -> SortedIDs.Iterator? {
        tasksByTrackingID[trackingID]?.ids(after: id)
    }

    /// Makes a saved delivery vehicle (or its deletion, `nil`) visible.
    mutating func publish(vehicle: DeliveryVehicle?, id: String) {
        if vehicle == nil { vehicleIDs.remove(id) } else if vehicles[id] == nil { vehicleIDs.insert(id) }
        vehicles[id] = vehicle
    }

    /// Makes a saved task (or its deletion, `nil`) visible.
    mutating func publish(task: DeliveryTask?, id: String) {
        let old = tasks[id]
        if task == nil { taskIDs.remove(id) } else if old == nil { taskIDs.insert(id) }
        Self.move(id, in: &tasksByVehicle, from: old?.deliveryVehicleID ?? "", to: task?.deliveryVehicleID ?? "")
        Self.move(id, in: &tasksByTrackingID, from: old?.trackingID ?? "", to: task?.trackingID ?? "")
        tasks[id] = task
    }

    /// Moves `id` from the ids under key `old` to those under key `new` (empty: none).
    private static func move(_ id: String, in index: inout [String: SortedIDs], from old: String, to new: String) {
        guard old != new else { return }
        if !old.isEmpty {
            index[old]?.remove(id)
            if index[old]?.count == 0 { index[old] = nil }
        }
        if !new.isEmpty { index[new, default: SortedIDs()].insert(id) }
    }
}
