/// The rules of a vehicle search, as Fleet Engine applies them.
extension SearchVehiclesRequest {
    /// The radius Fleet Engine accepts, in meters.
    public static let radiusRange = 400...10_000
    /// How many matches a search may ask for.
    public static let countRange = 1...50

    /// Refuses a search that lacks a required field or has an invalid one, or that asks for
    /// an order the local Fleet Engine cannot compute (it has no road network, so only
    /// `PICKUP_POINT_STRAIGHT_DISTANCE`).
    public func validate() throws(InvalidArgument) {
        guard let point = pickupPoint?.point else { throw InvalidArgument("pickupPoint.point is required") }
        try point.validate(field: "pickupPoint.point")
        guard let radius = pickupRadiusMeters, Self.radiusRange.contains(radius) else {
            throw InvalidArgument("pickupRadiusMeters must be from \(Self.radiusRange.lowerBound) to \(Self.radiusRange.upperBound)")
        }
        guard let count, Self.countRange.contains(count) else {
            throw InvalidArgument("count must be from \(Self.countRange.lowerBound) to \(Self.countRange.upperBound)")
        }
        guard let minimumCapacity, minimumCapacity >= 1 else { throw InvalidArgument("minimumCapacity must be at least 1") }
        guard let tripTypes, !tripTypes.isEmpty, !tripTypes.contains(.unknown) else {
            throw InvalidArgument("tripTypes must list SHARED and/or EXCLUSIVE")
        }
        guard let vehicleTypes, !vehicleTypes.isEmpty else { throw InvalidArgument("vehicleTypes must list at least one vehicle type") }
        guard let matchOrderBy, matchOrderBy != .unknown else { throw InvalidArgument("matchOrderBy is required") }
        guard matchOrderBy == .pickupPointStraightDistance else {
            throw InvalidArgument("matchOrderBy \(matchOrderBy.rawValue) needs a road network; the local Fleet Engine orders only by PICKUP_POINT_STRAIGHT_DISTANCE")
        }
    }
}
