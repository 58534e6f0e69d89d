/// Finds the vehicles a search asks for, as Fleet Engine does without a road network:
/// `ONLINE` vehicles with a reported position within the radius, enough capacity, a wanted
/// trip type and vehicle type, nearest first by straight-line distance. A vehicle with
/// unfinished trips is offered only for a shared trip it supports (`CARPOOL`).
enum VehicleSearch {
    /// A vehicle found, before it is presented to the caller.
    struct Candidate: Equatable {
        let id: String
        let distanceMeters: Double
        let matchType: VehicleMatch.MatchType
    }

    /// The vehicles among `vehicles` (by id) that match a validated `request`, nearest first
    /// (ties by id), at most `request.count`.
    static func candidates(for request: SearchVehiclesRequest, among vehicles: [String: Vehicle], activeTrips: ActiveTripIndex) -> [Candidate] {
        guard let pickup = request.pickupPoint?.point, let radius = request.pickupRadiusMeters else { return [] }
        let wantedTripTypes = Set(request.tripTypes ?? [])
        let wantedCategories = Set((request.vehicleTypes ?? []).map(\.category))
        var found: [Candidate] = []
        for (id, vehicle) in vehicles where vehicle.vehicleState == .online {
            guard let position = vehicle.lastLocation?.location,
                  (vehicle.maximumCapacity ?? 0) >= (request.minimumCapacity ?? 1),
                  let category = vehicle.vehicleType?.category, wantedCategories.contains(category)
            else { continue }
            let supported = Set(vehicle.supportedTripTypes ?? []).intersection(wantedTripTypes)
            let matchType: VehicleMatch.MatchType
            if activeTrips.trips(of: id).isEmpty {
                guard !supported.isEmpty else { continue }
                matchType = .exclusive
            } else {
                guard supported.contains(.shared) else { continue }
                matchType = .carpool
            }
            let distance = position.distance(to: pickup)
            guard distance <= Double(radius) else { continue }
            found.append(Candidate(id: id, distanceMeters: distance, matchType: matchType))
        }
        found.sort { ($0.distanceMeters, $0.id) < ($1.distanceMeters, $1.id) }
        return Array(found.prefix(request.count ?? SearchVehiclesRequest.countRange.upperBound))
    }
}
