import Foundation

/// The delivery vehicles and tasks of ``EngineState``: reads of what is saved, writes accepted
/// under the same lock and saved by the same group commit as vehicles and trips.
extension EngineState {
    // MARK: Reads (durable state only)

    /// The delivery vehicle, with its stops' task durations and time windows, or `nil`.
    func deliveryVehicle(_ id: String) -> DeliveryVehicle? {
        live.withLock { live in
            let deliveries = live.saved.deliveries
            return deliveries.vehicles[id]?.presented { deliveries.tasks[$0] }
        }
    }

    /// The task, or `nil`.
    func task(_ id: String) -> DeliveryTask? {
        live.withLock { $0.saved.deliveries.tasks[id] }
    }

    /// The page of tasks a validated ListTasks `request` asks for, with its parsed `filter`.
    func listTasks(_ request: ListTasksRequest, filter: ListFilter?) throws(InvalidArgument) -> ListTasksResponse {
        try live.withLock { live in
            Result { () throws(InvalidArgument) in
                try TaskListing.page(request, filter: filter, in: live.saved.deliveries)
            }
        }.get()
    }

    /// The page of delivery vehicles a validated ListDeliveryVehicles `request` asks for, with
    /// its parsed `filter`.
    func listDeliveryVehicles(_ request: ListDeliveryVehiclesRequest, filter: ListFilter?) throws(InvalidArgument)
        -> ListDeliveryVehiclesResponse
    {
        try live.withLock { live in
            Result { () throws(InvalidArgument) in
                try DeliveryVehicleListing.page(request, filter: filter, in: live.saved.deliveries)
            }
        }.get()
    }

    /// The tracking info of `trackingID` at `now`, with the id of the task that answers it, or
    /// `nil` when no task has that tracking id.
    func trackingInfo(_ trackingID: String, now: Date) -> (taskID: String, info: TaskTrackingInfo)? {
        live.withLock { live in
            let deliveries = live.saved.deliveries
            var tasks: [(id: String, task: DeliveryTask)] = []
            var ids = deliveries.taskIDs(trackedAs: trackingID)
            while let id = ids?.next() { if let task = deliveries.tasks[id] { tasks.append((id, task)) } }
            guard let (id, task) = TrackingView.answeringTask(among: tasks, vehicle: { deliveries.vehicles[$0] }) else {
                return nil
            }
            let vehicle = task.assignedVehicleID.flatMap { deliveries.vehicles[$0] }
            let info = TrackingView.info(
                of: task, id: id, trackingID: trackingID, provider: live.saved.provider, vehicle: vehicle,
                tasks: { deliveries.tasks[$0] }, now: now)
            return (id, info)
        }
    }

    // MARK: Writes (acknowledged once durable)

    /// Creates a delivery vehicle; 409 when the id is taken.
    func createDeliveryVehicle(_ id: String, _ vehicle: DeliveryVehicle) throws -> Accepted<DeliveryVehicle> {
        try accept { try $0.acceptDeliveryVehicleCreation(id, vehicle) }
    }

    /// Sets `fields` of a delivery vehicle from `update`, with the tasks its new stops assign
    /// or close; 404 without the vehicle, 400 for stops that break Google's rules.
    func updateDeliveryVehicle(_ id: String, with update: DeliveryVehicle, fields: Set<DeliveryVehicleField>) throws
        -> Accepted<DeliveryVehicle>
    {
        try accept { try $0.acceptDeliveryVehicleUpdate(id, with: update, fields: fields) }
    }

    /// Deletes a delivery vehicle; 404 without it, 400 `FAILED_PRECONDITION` while it has open tasks.
    func deleteDeliveryVehicle(_ id: String) throws -> Accepted<Void> {
        try accept { try $0.acceptDeliveryVehicleDeletion(id) }
    }

    /// Creates tasks, all or none; 409 when an id is taken.
    func createTasks(_ tasks: [(id: String, task: DeliveryTask)]) throws -> Accepted<[DeliveryTask]> {
        try accept { try $0.acceptTaskCreations(tasks) }
    }

    /// Sets `fields` of a task from `update`; 404 without it, 400 `FAILED_PRECONDITION` for a
    /// change its state forbids.
    func updateTask(_ id: String, with update: DeliveryTask, fields: Set<TaskField>) throws -> Accepted<DeliveryTask> {
        try accept { try $0.acceptTaskUpdate(id, with: update, fields: fields) }
    }

    /// Deletes a task; 404 without it, 400 `FAILED_PRECONDITION` while it is open and assigned.
    func deleteTask(_ id: String) throws -> Accepted<Void> {
        try accept { try $0.acceptTaskDeletion(id) }
    }
}
