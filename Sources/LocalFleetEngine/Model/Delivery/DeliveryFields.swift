// The top-level fields of the delivery resources that an `updateMask` may name (``FieldMask``).

/// The fields of a ``DeliveryVehicle`` that `updateMask` may name.
package enum DeliveryVehicleField: String, UpdatableField {
    /// `lastLocation` (the server stamps its `serverTime`).
    case lastLocation
    /// `navigationStatus`.
    case navigationStatus
    /// `currentRouteSegment`, the encoded route to the next stop.
    case currentRouteSegment
    /// `currentRouteSegmentEndPoint`.
    case currentRouteSegmentEndPoint
    /// `remainingDistanceMeters`.
    case remainingDistanceMeters
    /// `remainingDuration`.
    case remainingDuration
    /// `remainingVehicleJourneySegments`: the vehicle's stops, replaced whole (see ``JourneyPlan``).
    case remainingVehicleJourneySegments
    /// `attributes`, replaced whole.
    case attributes
    /// `type`.
    case type

    /// The only field an untrusted driver may set: its location (IAM's `updateLocation`).
    package static let driverWritable: Set<DeliveryVehicleField> = [.lastLocation]

    /// The resource, for messages.
    package static let resourceName = "DeliveryVehicle"
}

/// The fields of a ``DeliveryTask`` that `updateMask` may name; `type`, `trackingId`,
/// `plannedLocation` and `taskDuration` never change.
package enum TaskField: String, UpdatableField {
    /// `state`: OPEN → CLOSED, only for a task no vehicle has.
    case state
    /// `taskOutcome`, set once.
    case taskOutcome
    /// `taskOutcomeTime`.
    case taskOutcomeTime
    /// `taskOutcomeLocation` (the vehicle's last location when an outcome comes without one).
    case taskOutcomeLocation
    /// `targetTimeWindow`.
    case targetTimeWindow
    /// `taskTrackingViewConfig`.
    case taskTrackingViewConfig
    /// `attributes`, replaced whole.
    case attributes

    /// A trusted driver may set every field that can be set (IAM's `tasks.update`).
    package static let driverWritable = Set(allCases)

    /// The resource, for messages.
    package static let resourceName = "Task"
}
