/// Where a vehicle is and how it is moving (`VehicleLocation`), as its driver app reports it.
/// The server sets ``serverTime`` when it stores the location.
package struct VehicleLocation: Sendable, Hashable {
    /// The position.
    package var location: LatLng?
    /// The position's accuracy radius in meters.
    package var latlngAccuracy: Double?
    /// The direction of travel in degrees clockwise from north, 0 to 359.
    package var heading: Int?
    /// The heading's accuracy in degrees.
    package var headingAccuracy: Double?
    /// The speed in meters per second.
    package var speed: Double?
    /// The speed's accuracy in meters per second.
    package var speedAccuracy: Double?
    /// The altitude in meters above WGS84.
    package var altitude: Double?
    /// The altitude's accuracy in meters.
    package var altitudeAccuracy: Double?
    /// When the device took the reading.
    package var updateTime: ProtoTimestamp?
    /// When the server received the reading (output only: set by the server).
    package var serverTime: ProtoTimestamp?
    /// The sensor that took the reading.
    package var locationSensor: LocationSensor?
    /// Whether the position was snapped to a road.
    package var isRoadSnapped: Bool?

    /// Creates a location; every field is optional, as in the API.
    package init(location: LatLng? = nil, heading: Int? = nil, speed: Double? = nil, updateTime: ProtoTimestamp? = nil) {
        self.location = location
        self.heading = heading
        self.speed = speed
        self.updateTime = updateTime
    }

    /// Refuses a location without a valid position, or with a heading outside 0–359 or a
    /// number that is not finite; `field` names the location in messages.
    package func validate(field: String) throws(InvalidArgument) {
        guard let location else { throw InvalidArgument("\(field).location is required") }
        try location.validate(field: "\(field).location")
        if let heading, !(0..<360).contains(heading) {
            throw InvalidArgument("\(field).heading is \(heading); it must be from 0 to 359 degrees")
        }
        let measures: [(String, Double?)] = [
            ("latlngAccuracy", latlngAccuracy), ("headingAccuracy", headingAccuracy), ("speed", speed),
            ("speedAccuracy", speedAccuracy), ("altitude", altitude), ("altitudeAccuracy", altitudeAccuracy),
        ]
        for case let (name, value?) in measures where !value.isFinite {
            throw InvalidArgument("\(field).\(name) is \(value); it must be a finite number")
        }
        for case let (name, value?) in measures where name != "altitude" && value < 0 {
            throw InvalidArgument("\(field).\(name) is \(value); it must not be negative")
        }
    }
}

/// The sensor behind a ``VehicleLocation`` (`LocationSensor`).
package enum LocationSensor: String, ProtoEnum {
    /// Not specified.
    case unknownSensor = "UNKNOWN_SENSOR"
    /// GPS or assisted GPS.
    case gps = "GPS"
    /// Assisted GPS, cell tower or WiFi access point.
    case network = "NETWORK"
    /// Cell tower or WiFi access point.
    case passive = "PASSIVE"
    /// Snapped to a road by the device.
    case roadSnappedLocationProvider = "ROAD_SNAPPED_LOCATION_PROVIDER"
    /// Supplied by the customer.
    case customerSuppliedLocation = "CUSTOMER_SUPPLIED_LOCATION"
    /// Computed by Fleet Engine.
    case fleetEngineLocation = "FLEET_ENGINE_LOCATION"
    /// Android's fused location provider.
    case fusedLocationProvider = "FUSED_LOCATION_PROVIDER"
    /// Apple's Core Location.
    case coreLocation = "CORE_LOCATION"
}
