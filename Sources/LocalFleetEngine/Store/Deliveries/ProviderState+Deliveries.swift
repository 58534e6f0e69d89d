import FleetAuthServerHTTP
import Foundation
import SwiftProtobuf

/// The acceptance of delivery writes: each is checked against every write accepted before it,
/// saved or not, and a write that changes several resources (a vehicle and the tasks its stops
/// assign or close, a batch of tasks) is queued as one, saved whole or not at all.
extension ProviderState {
    /// The latest accepted version of delivery vehicle `id`, or `nil`.
    func latestDeliveryVehicle(_ id: String) -> DeliveryVehicle? {
        pendingDeliveryVehicles.latest(id, saved: saved.deliveries.vehicles)
    }

    /// The latest accepted version of task `id`, or `nil`.
    func latestTask(_ id: String) -> DeliveryTask? {
        pendingTasks.latest(id, saved: saved.deliveries.tasks)
    }

    /// Accepts a new delivery vehicle (of type AUTO when none is given); 409 when the id is taken.
    mutating func acceptDeliveryVehicleCreation(_ id: String, _ vehicle: DeliveryVehicle) throws -> Accepted<
        DeliveryVehicle
    > {
        guard latestDeliveryVehicle(id) == nil else {
            throw APIError.alreadyExists("delivery vehicle '\(id)' already exists")
        }
        var created = vehicle
        created.name = ResourceName.deliveryVehicle(provider: saved.provider, id: id)
        if created.type.isUnset { created.type = .auto }
        created.pastLocations = []
        return Accepted(value: created, acknowledgement: write([.deliveryVehicle(id: id, created)]))
    }

    /// Accepts new values of a delivery vehicle's `fields`; 404 without the vehicle. New stops
    /// assign the tasks they name and close those they no longer name (``JourneyPlan``), in
    /// the same write.
    mutating func acceptDeliveryVehicleUpdate(
        _ id: String, with update: DeliveryVehicle, fields: Set<DeliveryVehicleField>
    ) throws -> Accepted<DeliveryVehicle> {
        guard let current = latestDeliveryVehicle(id) else {
            throw APIError.notFound("delivery vehicle '\(id)' does not exist")
        }
        var records: [ResourceChange] = []
        if fields.contains(.remainingVehicleJourneySegments) {
            let plan = try JourneyPlan(
                vehicleID: id, from: current.remainingVehicleJourneySegments,
                to: update.remainingVehicleJourneySegments, task: latestTask)
            for taskID in plan.assigned {
                guard var task = latestTask(taskID) else { continue }
                task.deliveryVehicleID = id
                records.append(.task(id: taskID, task))
            }
            for taskID in plan.closed {
                guard var task = latestTask(taskID), task.state != .closed else { continue }
                task.state = .closed
                task.clearJourneySharingInfo()
                records.append(.task(id: taskID, task))
            }
        }
        let updated = current.applying(update, fields: fields)
        records.insert(.deliveryVehicle(id: id, updated), at: 0)
        let acknowledgement = write(records)
        return Accepted(value: updated.presented(task: latestTask), acknowledgement: acknowledgement)
    }

    /// Accepts a delivery vehicle's removal; 404 without it, 400 `FAILED_PRECONDITION` while its
    /// stops hold open tasks.
    mutating func acceptDeliveryVehicleDeletion(_ id: String) throws -> Accepted<Void> {
        guard let vehicle = latestDeliveryVehicle(id) else {
            throw APIError.notFound("delivery vehicle '\(id)' does not exist")
        }
        let open = vehicle.remainingVehicleJourneySegments.flatMap { $0.stop.tasks.map(\.taskID) }
        guard open.isEmpty else {
            throw APIError.failedPrecondition(
                "delivery vehicle '\(id)' has open tasks (\(open.joined(separator: ", "))); remove its stops, which closes them, first"
            )
        }
        return Accepted(value: (), acknowledgement: write([.deletedDeliveryVehicle(id: id)]))
    }

    /// Accepts new tasks, all or none; 409 when an id is taken (or given twice).
    mutating func acceptTaskCreations(_ tasks: [(id: String, task: DeliveryTask)]) throws -> Accepted<[DeliveryTask]> {
        var ids: Set<String> = []
        for (id, _) in tasks {
            guard latestTask(id) == nil else { throw APIError.alreadyExists("task '\(id)' already exists") }
            guard ids.insert(id).inserted else {
                throw APIError.alreadyExists("task '\(id)' is created twice in the batch")
            }
        }
        let created = tasks.map { id, task in
            var created = task
            created.name = ResourceName.task(provider: saved.provider, id: id)
            return (id: id, task: created)
        }
        return Accepted(value: created.map(\.task), acknowledgement: write(created.map { .task(id: $0.id, $0.task) }))
    }

    /// Accepts new values of a task's `fields` at `now`; 404 without the task, 400
    /// `FAILED_PRECONDITION` for a change its state forbids (``TaskLifecycle``).
    mutating func acceptTaskUpdate(_ id: String, with update: DeliveryTask, fields: Set<TaskField>) throws -> Accepted<
        DeliveryTask
    > {
        guard let current = latestTask(id) else { throw APIError.notFound("task '\(id)' does not exist") }
        let vehicleLocation = current.assignedVehicleID.flatMap(latestDeliveryVehicle).flatMap {
            $0.hasLastLocation ? $0.lastLocation : nil
        }
        let updated = try TaskLifecycle.update(
            current, id: id, with: update, fields: fields, vehicleLocation: vehicleLocation)
        return Accepted(value: updated, acknowledgement: write([.task(id: id, updated)]))
    }

    /// Accepts a task's removal; 404 without it, 400 `FAILED_PRECONDITION` while it is open
    /// and assigned to a vehicle.
    mutating func acceptTaskDeletion(_ id: String) throws -> Accepted<Void> {
        guard let task = latestTask(id) else { throw APIError.notFound("task '\(id)' does not exist") }
        if task.state == .open, let vehicleID = task.assignedVehicleID {
            throw APIError.failedPrecondition(
                "task '\(id)' is open and assigned to delivery vehicle '\(vehicleID)'; remove it from the vehicle's stops, which closes it, first"
            )
        }
        return Accepted(value: (), acknowledgement: write([.deletedTask(id: id)]))
    }
}
