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
        var shown = Vehicle()
        shown.name = vehicle.name
        shown.vehicleState = vehicle.vehicleState
        shown.supportedTripTypes = vehicle.supportedTripTypes
        shown.maximumCapacity = vehicle.maximumCapacity
        if vehicle.hasVehicleType { shown.vehicleType = vehicle.vehicleType }
        var distance = 0.0
        if vehicle.hasLastLocation {
            if vehicle.lastLocation.hasLocation {
                let rounded = vehicle.lastLocation.location.rounded(toDegrees: gridDegrees)
                shown.lastLocation.location = rounded
                distance = (rounded.distance(to: pickup) / distanceStepMeters).rounded() * distanceStepMeters
            }
            if vehicle.lastLocation.hasUpdateTime { shown.lastLocation.updateTime = vehicle.lastLocation.updateTime }
        }
        var approximate = match
        approximate.vehicle = shown
        approximate.vehiclePickupStraightLineDistanceMeters = .init(Int32(distance))
        return approximate
    }
}
