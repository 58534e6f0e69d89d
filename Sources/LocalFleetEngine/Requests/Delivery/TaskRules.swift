import FleetEngineProtos
import FleetTokens
import SwiftProtobuf

/// The rules a task's fields follow when it is created or updated, as Google documents them.
extension DeliveryTask {
    /// The most attributes a task may carry (as a delivery vehicle).
    static let maximumAttributes = 100

    /// Refuses a new task that breaks CreateTask's rules: `type`, `state` OPEN and
    /// `taskDuration` are required; `plannedLocation` too, but for UNAVAILABLE tasks;
    /// `trackingId` is required for PICKUP and DELIVERY and refused for the others;
    /// `targetTimeWindow`, `taskTrackingViewConfig` and `attributes` may be given, and nothing else.
    func validateForCreation() throws(InvalidArgument) {
        try requireKnownFields("task")
        try requireDefinedEnums()
        guard !type.isUnset else {
            throw InvalidArgument("task.type is required: PICKUP, DELIVERY, SCHEDULED_STOP or UNAVAILABLE")
        }
        guard state == .open else {
            throw InvalidArgument("task.state is required and must be OPEN when the task is created")
        }
        guard hasTaskDuration else { throw InvalidArgument("task.taskDuration is required") }
        try Self.validate(taskDuration, "task.taskDuration")
        if hasPlannedLocation {
            guard plannedLocation.hasPoint else { throw InvalidArgument("task.plannedLocation.point is required") }
            try plannedLocation.point.validate(field: "task.plannedLocation.point")
        } else if type != .unavailable {
            throw InvalidArgument("task.plannedLocation is required for a \(type) task")
        }
        switch type {
        case .pickup, .delivery:
            guard !trackingID.isEmpty else { throw InvalidArgument("task.trackingId is required for a \(type) task") }
            if let problem = FleetEngineIdentifier.problem(with: trackingID) {
                throw InvalidArgument("task.trackingId \(problem)")
            }
        default:
            guard trackingID.isEmpty else {
                throw InvalidArgument("task.trackingId must not be set for a \(type) task")
            }
        }
        let outputOnly: [(String, Bool)] = [
            ("deliveryVehicleId", !deliveryVehicleID.isEmpty), ("taskOutcome", !taskOutcome.isUnset),
            ("taskOutcomeTime", hasTaskOutcomeTime),
            ("taskOutcomeLocation", hasTaskOutcomeLocation),
            ("taskOutcomeLocationSource", !taskOutcomeLocationSource.isUnset),
            ("journeySharingInfo", hasJourneySharingInfo),
        ]
        for (field, isSet) in outputOnly where isSet {
            throw InvalidArgument(
                "task.\(field) cannot be set when the task is created; a task is assigned by UpdateDeliveryVehicle and closed later"
            )
        }
        try validate(of: [.targetTimeWindow, .taskTrackingViewConfig, .attributes])
    }

    /// Refuses an update whose values of `fields` break a rule (the task's state and outcome
    /// are checked against the stored task when the update is accepted).
    func validateUpdate(of fields: Set<TaskField>) throws(InvalidArgument) {
        try requireKnownFields("task")
        try requireDefinedEnums()
        if fields.contains(.state), state.isUnset {
            throw InvalidArgument("task.state is named by updateMask but not given")
        }
        if fields.contains(.taskOutcome), taskOutcome.isUnset {
            throw InvalidArgument("task.taskOutcome is named by updateMask but not given: SUCCEEDED or FAILED")
        }
        try validate(of: fields)
    }

    private func validate(of fields: Set<TaskField>) throws(InvalidArgument) {
        if fields.contains(.taskOutcomeLocation), hasTaskOutcomeLocation {
            guard taskOutcomeLocation.hasPoint else {
                throw InvalidArgument("task.taskOutcomeLocation.point is required")
            }
            try taskOutcomeLocation.point.validate(field: "task.taskOutcomeLocation.point")
        }
        if fields.contains(.targetTimeWindow), hasTargetTimeWindow {
            guard targetTimeWindow.hasStartTime, targetTimeWindow.hasEndTime else {
                throw InvalidArgument("task.targetTimeWindow needs both startTime and endTime")
            }
            guard targetTimeWindow.startTime.date <= targetTimeWindow.endTime.date else {
                throw InvalidArgument("task.targetTimeWindow ends before it starts")
            }
        }
        if fields.contains(.taskTrackingViewConfig), hasTaskTrackingViewConfig {
            try taskTrackingViewConfig.validate()
        }
        if fields.contains(.attributes) {
            try Maps_Fleetengine_Delivery_V1_TaskAttribute.validate(
                attributes, maximum: Self.maximumAttributes, field: "task.attributes")
        }
    }

    /// Copies `field` of `source` into `target` (an unset message field stays unset).
    static func copy(_ field: TaskField, from source: DeliveryTask, to target: inout DeliveryTask) {
        switch field {
        case .state: target.state = source.state
        case .taskOutcome: target.taskOutcome = source.taskOutcome
        case .taskOutcomeTime:
            if source.hasTaskOutcomeTime {
                target.taskOutcomeTime = source.taskOutcomeTime
            } else {
                target.clearTaskOutcomeTime()
            }
        case .taskOutcomeLocation:
            if source.hasTaskOutcomeLocation {
                target.taskOutcomeLocation = source.taskOutcomeLocation
            } else {
                target.clearTaskOutcomeLocation()
            }
        case .targetTimeWindow:
            if source.hasTargetTimeWindow {
                target.targetTimeWindow = source.targetTimeWindow
            } else {
                target.clearTargetTimeWindow()
            }
        case .taskTrackingViewConfig:
            if source.hasTaskTrackingViewConfig {
                target.taskTrackingViewConfig = source.taskTrackingViewConfig
            } else {
                target.clearTaskTrackingViewConfig()
            }
        case .attributes: target.attributes = source.attributes
        }
    }

    private static func validate(_ duration: Google_Protobuf_Duration, _ field: String) throws(InvalidArgument) {
        guard duration.seconds >= 0, duration.nanos >= 0 else { throw InvalidArgument("\(field) must not be negative") }
    }

    private func requireDefinedEnums() throws(InvalidArgument) {
        try type.requireDefined("task.type")
        try state.requireDefined("task.state")
        try taskOutcome.requireDefined("task.taskOutcome")
        try taskOutcomeLocationSource.requireDefined("task.taskOutcomeLocationSource")
    }
}

extension Maps_Fleetengine_Delivery_V1_TaskTrackingViewConfig {
    /// Refuses a visibility option that is `always: false` or `never: false` (only `true` means
    /// anything), or a negative threshold.
    func validate() throws(InvalidArgument) {
        let options: [(String, Bool, VisibilityOption)] = [
            ("routePolylinePointsVisibility", hasRoutePolylinePointsVisibility, routePolylinePointsVisibility),
            ("estimatedArrivalTimeVisibility", hasEstimatedArrivalTimeVisibility, estimatedArrivalTimeVisibility),
            (
                "estimatedTaskCompletionTimeVisibility", hasEstimatedTaskCompletionTimeVisibility,
                estimatedTaskCompletionTimeVisibility
            ),
            (
                "remainingDrivingDistanceVisibility", hasRemainingDrivingDistanceVisibility,
                remainingDrivingDistanceVisibility
            ),
            ("remainingStopCountVisibility", hasRemainingStopCountVisibility, remainingStopCountVisibility),
            ("vehicleLocationVisibility", hasVehicleLocationVisibility, vehicleLocationVisibility),
        ]
        for (name, isSet, option) in options where isSet {
            let field = "task.taskTrackingViewConfig.\(name)"
            switch option.visibilityOption {
            case .always(false), .never(false):
                throw InvalidArgument("\(field) may be always: true or never: true, not false")
            case .remainingStopCountThreshold(let count) where count < 0,
                .remainingDrivingDistanceMetersThreshold(let count) where count < 0:
                throw InvalidArgument("\(field) has a negative threshold")
            case .durationUntilEstimatedArrivalTimeThreshold(let duration) where duration.seconds < 0:
                throw InvalidArgument("\(field) has a negative threshold")
            case nil: throw InvalidArgument("\(field) is empty; give a threshold, always or never")
            default: continue
            }
        }
    }
}
