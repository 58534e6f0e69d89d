// The top-level fields of the resources that an `updateMask` may name (``FieldMask``).

/// The fields of a ``Vehicle`` that `updateMask` may name.
package enum VehicleField: String, UpdatableField {
    /// `lastLocation` (the server stamps its `serverTime`).
    case lastLocation
    /// `vehicleState`.
    case vehicleState
    /// `attributes`, replaced whole.
    case attributes
    /// `supportedTripTypes`.
    case supportedTripTypes
    /// `maximumCapacity`.
    case maximumCapacity
    /// `vehicleType`.
    case vehicleType

    /// The fields a Driver SDK token may set on its own vehicle.
    package static let driverWritable: Set<VehicleField> = [.lastLocation, .vehicleState]

    /// The resource, for messages.
    package static let resourceName = "Vehicle"
}

/// The fields of a ``Trip`` that `updateMask` may name.
package enum TripField: String, UpdatableField {
    /// `vehicleId`: assigns the trip (server tokens only).
    case vehicleId
    /// `tripStatus`; a finished trip's status never changes.
    case tripStatus
    /// `pickupPoint`.
    case pickupPoint
    /// `dropoffPoint`.
    case dropoffPoint
    /// `numberOfPassengers`.
    case numberOfPassengers

    /// The fields a Driver SDK token may set on a trip assigned to its vehicle.
    package static let driverWritable: Set<TripField> = [.tripStatus]

    /// The resource, for messages.
    package static let resourceName = "Trip"
}
