/// A trip (`Trip`), in Fleet Engine's proto3 JSON.
package struct Trip: Sendable, Hashable {
    /// `providers/{provider}/trips/{tripId}` (set by the server).
    package var name: String?
    /// The vehicle the trip is assigned to, if any.
    package var vehicleId: String?
    /// How far the trip has got.
    package var tripStatus: TripStatus?
    /// Whether the trip may share its vehicle.
    package var tripType: TripType?
    /// Where the rider is picked up.
    package var pickupPoint: TerminalLocation?
    /// Where the rider is dropped off.
    package var dropoffPoint: TerminalLocation?
    /// How many passengers ride.
    package var numberOfPassengers: Int?

    /// Creates a trip; every field is optional, as in the API.
    package init(
        name: String? = nil,
        vehicleId: String? = nil,
        tripStatus: TripStatus? = nil,
        tripType: TripType? = nil,
        pickupPoint: TerminalLocation? = nil,
        dropoffPoint: TerminalLocation? = nil,
        numberOfPassengers: Int? = nil
    ) {
        self.name = name
        self.vehicleId = vehicleId
        self.tripStatus = tripStatus
        self.tripType = tripType
        self.pickupPoint = pickupPoint
        self.dropoffPoint = dropoffPoint
        self.numberOfPassengers = numberOfPassengers
    }

    /// Whether the trip still occupies its vehicle (not `COMPLETE` or `CANCELED`).
    package var isActive: Bool {
        !(tripStatus?.isFinal ?? false)
    }
}

/// How far a trip has got (`TripStatus`).
package enum TripStatus: String, ProtoEnum {
    /// Not specified.
    case unknown = "UNKNOWN_TRIP_STATUS"
    /// Created, no vehicle on the way yet.
    case new = "NEW"
    /// The vehicle is on its way to the pickup point.
    case enrouteToPickup = "ENROUTE_TO_PICKUP"
    /// The vehicle is at the pickup point.
    case arrivedAtPickup = "ARRIVED_AT_PICKUP"
    /// The vehicle is at an intermediate destination.
    case arrivedAtIntermediateDestination = "ARRIVED_AT_INTERMEDIATE_DESTINATION"
    /// The vehicle is on its way to an intermediate destination.
    case enrouteToIntermediateDestination = "ENROUTE_TO_INTERMEDIATE_DESTINATION"
    /// The vehicle is on its way to the dropoff point.
    case enrouteToDropoff = "ENROUTE_TO_DROPOFF"
    /// The rider was dropped off.
    case complete = "COMPLETE"
    /// The trip was cancelled.
    case canceled = "CANCELED"

    /// Whether the trip is over; a finished trip's status never changes again.
    package var isFinal: Bool { self == .complete || self == .canceled }
}

/// A pickup or dropoff place (`TerminalLocation`).
package struct TerminalLocation: Sendable, Hashable {
    /// The point.
    package var point: LatLng?

    /// Creates a terminal location at `point`.
    package init(point: LatLng?) {
        self.point = point
    }
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
