/// What a consumer's search may see of a vehicle: its public fields and a position rounded to
/// a grid, never its exact position, heading, speed, attributes or trips.
enum ApproximateView {
    /// The grid positions are rounded to, in degrees (about 550 m north–south).
    static let gridDegrees = 0.005
    /// The step distances are rounded to, in meters.
    static let distanceStepMeters = 100.0

    /// `match` as a consumer may see it, its distance measured from the rounded position.
    static func of(_ match: VehicleMatch, pickup: LatLng) -> VehicleMatch {
        let vehicle = match.vehicle
        let rounded = vehicle.lastLocation?.location?.rounded(toDegrees: gridDegrees)
        var location = VehicleLocation(location: rounded)
        location.updateTime = vehicle.lastLocation?.updateTime
        let shown = Vehicle(
            name: vehicle.name,
            vehicleState: vehicle.vehicleState,
            supportedTripTypes: vehicle.supportedTripTypes,
            lastLocation: location,
            maximumCapacity: vehicle.maximumCapacity,
            vehicleType: vehicle.vehicleType
        )
        let distance = rounded.map { ($0.distance(to: pickup) / distanceStepMeters).rounded() * distanceStepMeters } ?? 0
        var approximate = match
        approximate.vehicle = shown
        approximate.vehiclePickupStraightLineDistanceMeters = Int(distance)
        return approximate
    }
}
