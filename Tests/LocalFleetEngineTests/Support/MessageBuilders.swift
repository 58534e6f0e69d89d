import FleetEngineProtos

@testable import LocalFleetEngine

// Short spellings of the engine's messages for tests, each leaving out (unset) what it is not
// given, as a request that does not name a field would.

extension Vehicle {
    /// A vehicle with the fields given.
    init(
        vehicleState: VehicleState = .unknownVehicleState, supportedTripTypes: [TripType] = [],
        lastLocation: VehicleLocation? = nil,
        maximumCapacity: Int32 = 0, attributes: [VehicleAttribute] = [], category: Vehicle.VehicleType.Category? = nil
    ) {
        self.init()
        self.vehicleState = vehicleState
        self.supportedTripTypes = supportedTripTypes
        if let lastLocation { self.lastLocation = lastLocation }
        self.maximumCapacity = maximumCapacity
        self.attributes = attributes
        if let category { vehicleType.category = category }
    }
}

extension VehicleLocation {
    /// A location at `point`, with a heading when given.
    init(at point: LatLng, heading: Int32? = nil) {
        self.init()
        location = point
        if let heading { self.heading = .init(heading) }
    }
}

extension VehicleAttribute {
    /// A string attribute.
    init(key: String, stringValue: String) {
        self.init()
        self.key = key
        self.stringValue = stringValue
    }
}

extension Trip {
    /// A trip with the fields given.
    init(
        vehicleID: String = "", tripStatus: TripStatus = .unknownTripStatus, tripType: TripType = .unknownTripType,
        pickup: LatLng? = nil
    ) {
        self.init()
        self.vehicleID = vehicleID
        self.tripStatus = tripStatus
        self.tripType = tripType
        if let pickup { pickupPoint.point = pickup }
    }
}
