/// A vehicle of the fleet (`Vehicle`), in Fleet Engine's proto3 JSON.
package struct Vehicle: Sendable, Hashable {
    /// `providers/{provider}/vehicles/{vehicleId}` (set by the server).
    package var name: String?
    /// Whether the vehicle takes trips.
    package var vehicleState: VehicleState?
    /// The kinds of trip the vehicle takes.
    package var supportedTripTypes: [TripType]?
    /// The ids of the unfinished trips assigned to the vehicle (output only: computed from trips).
    package var currentTrips: [String]?
    /// The last location the driver app reported.
    package var lastLocation: VehicleLocation?
    /// How many passengers the vehicle carries, at least 1.
    package var maximumCapacity: Int?
    /// The fleet's own keys and values.
    package var attributes: [VehicleAttribute]?
    /// The kind of vehicle.
    package var vehicleType: VehicleType?

    /// Creates a vehicle; every field is optional, as in the API.
    package init(
        name: String? = nil,
        vehicleState: VehicleState? = nil,
        supportedTripTypes: [TripType]? = nil,
        lastLocation: VehicleLocation? = nil,
        maximumCapacity: Int? = nil,
        attributes: [VehicleAttribute]? = nil,
        vehicleType: VehicleType? = nil
    ) {
        self.name = name
        self.vehicleState = vehicleState
        self.supportedTripTypes = supportedTripTypes
        self.lastLocation = lastLocation
        self.maximumCapacity = maximumCapacity
        self.attributes = attributes
        self.vehicleType = vehicleType
    }
}

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
