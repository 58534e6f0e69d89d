import Foundation

/// Finds the vehicles a search asks for, as Fleet Engine does but without a road network:
/// `ONLINE` vehicles with a position received within the staleness limit, inside the radius,
/// with enough capacity, a wanted vehicle type and the required attributes, offered by their
/// current trips as Google's API says, nearest first by straight-line distance.
enum VehicleSearch {
    /// A vehicle found, before it is presented to the caller.
    struct Candidate: Equatable {
        let id: String
        let distanceMeters: Double
        let tripType: TripType
        let matchType: VehicleMatch.VehicleMatchType
    }

    /// The most current trips a vehicle offered with `currentTripsPresent: ANY` may have.
    static let maximumCurrentTrips = 5

    /// The vehicles among those of `groups` (all the keys of `vehicles` in one group, or the
    /// spatial index's cells near the pickup point) that match a validated `request` at `now`,
    /// nearest first (ties by id), at most `request.count`; `activeTrips` has their unfinished
    /// trips and `status` each trip's status. The groups come nearest first, each with a lower
    /// bound of its vehicles' distance: once `count` matches are nearer than the next group's
    /// bound, the rest are not looked at.
    static func candidates(
        for request: SearchVehiclesRequest, among groups: some Sequence<(nearest: Double, ids: [String])>,
        of vehicles: [String: Vehicle],
        activeTrips: ActiveTripIndex, now: Date, status: @escaping (String) -> TripStatus?
    ) -> [Candidate] {
        let count = Int(request.count)
        let order = { (one: Candidate, other: Candidate) in
            (one.distanceMeters, one.id) < (other.distanceMeters, other.id)
        }
        var found: [Candidate] = []
        // Once `count` are found, the farthest of them: a vehicle beyond it cannot be among them.
        var cutoff = Double(request.pickupRadiusMeters)
        let isMatch = matcher(for: request, now: now, activeTrips: activeTrips, status: status)
        for group in groups {
            if group.nearest > cutoff, found.count == count { break }
            for id in group.ids {
                if let vehicle = vehicles[id], let candidate = isMatch(id, vehicle, cutoff) { found.append(candidate) }
            }
            // The best `count` so far: a later group can only displace them.
            found.sort(by: order)
            if found.count > count { found.removeLast(found.count - count) }
            if found.count == count, let farthest = found.last { cutoff = farthest.distanceMeters }
        }
        return found
    }

    /// The test of one vehicle against `request`: the candidate it makes, or `nil`, also when
    /// it is farther than the cutoff it is given. The distance is checked first, as the
    /// cheapest test that turns most vehicles of a cell away.
    private static func matcher(
        for request: SearchVehiclesRequest, now: Date, activeTrips: ActiveTripIndex,
        status: @escaping (String) -> TripStatus?
    ) -> (String, Vehicle, Double) -> Candidate? {
        let pickup = request.pickupPoint.point
        let wantedCategories = Set(request.vehicleTypes.map(\.category))
        let staleness = request.staleness.components
        let oldest = now.addingTimeInterval(-Double(staleness.seconds) - Double(staleness.attoseconds) / 1e18)
        return { id, vehicle, cutoff in
            guard vehicle.vehicleState == .online, vehicle.hasLastLocation, vehicle.lastLocation.hasLocation else {
                return nil
            }
            let distance = vehicle.lastLocation.location.distance(to: pickup)
            guard distance <= cutoff, vehicle.lastLocation.hasServerTime,
                vehicle.lastLocation.serverTime.date >= oldest,
                vehicle.maximumCapacity >= request.minimumCapacity,
                vehicle.hasVehicleType, wantedCategories.contains(vehicle.vehicleType.category),
                hasRequiredAttributes(vehicle.attributes, request),
                let offer = offer(vehicle, trips: activeTrips.trips(of: id), request, status: status)
            else { return nil }
            return Candidate(id: id, distanceMeters: distance, tripType: offer.tripType, matchType: offer.matchType)
        }
    }

    /// How `vehicle`, with unfinished `trips`, could take the trip, if at all: alone when it
    /// has none; beside them (`CARPOOL`, a shared trip) or after them (`BACK_TO_BACK`) when
    /// `currentTripsPresent` is `ANY`; after its one trip en route to its dropoff when
    /// `currentTripsPresent` is unset and `includeBackToBack` is true.
    private static func offer(
        _ vehicle: Vehicle, trips: [String], _ request: SearchVehiclesRequest, status: (String) -> TripStatus?
    ) -> (tripType: TripType, matchType: VehicleMatch.VehicleMatchType)? {
        let offers = { (type: TripType) in vehicle.supportedTripTypes.contains(type) && request.tripTypes.contains(type)
        }
        let exclusive = offers(.exclusive), shared = offers(.shared)
        if trips.isEmpty {
            guard exclusive || shared else { return nil }
            return (exclusive ? .exclusive : .shared, .exclusive)
        }
        switch request.currentTripsPresent {
        case .none:
            return nil
        case .any:
            guard trips.count <= maximumCurrentTrips else { return nil }
            if shared { return (.shared, .carpool) }
            return exclusive ? (.exclusive, .backToBack) : nil
        case .unspecified, .UNRECOGNIZED:
            guard request.includeBackToBack, exclusive, trips.count == 1, status(trips[0]) == .enrouteToDropoff else {
                return nil
            }
            return (.exclusive, .backToBack)
        }
    }

    /// Whether `attributes` meet the request's attribute filters.
    private static func hasRequiredAttributes(_ attributes: [VehicleAttribute], _ request: SearchVehiclesRequest)
        -> Bool
    {
        let has = { (wanted: VehicleAttribute) in attributes.contains { $0.hasSameValue(as: wanted) } }
        guard request.requiredAttributes.allSatisfy(has) else { return false }
        guard request.requiredOneOfAttributes.allSatisfy({ $0.attributes.contains(where: has) }) else { return false }
        let sets = request.requiredOneOfAttributeSets
        return sets.isEmpty || sets.contains { $0.attributes.allSatisfy(has) }
    }
}
