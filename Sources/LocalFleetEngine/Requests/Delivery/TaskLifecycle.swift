import FleetAuthServerHTTP
import SwiftProtobuf

/// How a task's state and outcome may change, by Google's rules: OPEN → CLOSED only, never back;
/// CLOSED is set directly only on a task no vehicle has (an assigned task closes when its stop
/// leaves the vehicle's list); the outcome is set once; an outcome given without a location is
/// placed at the vehicle's last location.
enum TaskLifecycle {
    /// `current` (task `id`) with `fields` of `update` applied; `vehicleLocation` is the last
    /// location of the task's vehicle, if any.
    ///
    /// - Throws: 400 `FAILED_PRECONDITION` when the change is one the task's state forbids.
    static func update(
        _ current: DeliveryTask, id: String, with update: DeliveryTask, fields: Set<TaskField>,
        vehicleLocation: DeliveryVehicleLocation?
    ) throws(APIError) -> DeliveryTask {
        if fields.contains(.state), update.state != current.state {
            guard current.state == .open else {
                throw .failedPrecondition("task '\(id)' is closed, and a closed task never reopens")
            }
            if let vehicleID = current.assignedVehicleID {
                throw .failedPrecondition(
                    "task '\(id)' is assigned to delivery vehicle '\(vehicleID)'; it closes when its stop is removed from the vehicle's remainingVehicleJourneySegments, not by setting its state"
                )
            }
        }
        if fields.contains(.taskOutcome), !current.taskOutcome.isUnset, update.taskOutcome != current.taskOutcome {
            throw .failedPrecondition(
                "task '\(id)' already has the outcome \(current.taskOutcome); an outcome is set once")
        }
        var updated = current.applying(update, fields: fields)
        if fields.contains(.taskOutcomeLocation), update.hasTaskOutcomeLocation {
            updated.taskOutcomeLocationSource = .provider
        } else if fields.contains(.taskOutcome), current.taskOutcome.isUnset, !current.hasTaskOutcomeLocation,
            let vehicleLocation,
            vehicleLocation.hasLocation
        {
            updated.taskOutcomeLocation = .with { $0.point = vehicleLocation.location }
            updated.taskOutcomeLocationSource = .lastVehicleLocation
        }
        if updated.state == .closed { updated.clearJourneySharingInfo() }
        return updated
    }
}
