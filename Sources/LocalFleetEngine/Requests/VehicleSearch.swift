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

    /// The vehicles among those of `ids` (the keys of `vehicles`, or those the spatial index
    /// found near the pickup point) that match a validated `request` at `now`, nearest first
    /// (ties by id), at most `request.count`; `activeTrips` has their unfinished trips and
    /// `status` each trip's status.
    static func candidates(
        for request: SearchVehiclesRequest, among ids: some Sequence<String>, of vehicles: [String: Vehicle], activeTrips: ActiveTripIndex,
        now: Date, status: (String) -> TripStatus?
    ) -> [Candidate] {
        let pickup = request.pickupPoint.point
        let wantedCategories = Set(request.vehicleTypes.map(\.category))
        let staleness = request.staleness.components
        let oldest = now.addingTimeInterval(-Double(staleness.seconds) - Double(staleness.attoseconds) / 1e18)
        var found: [Candidate] = []
        for id in ids {
            guard let vehicle = vehicles[id], vehicle.vehicleState == .online,
                  vehicle.hasLastLocation, vehicle.lastLocation.hasLocation, vehicle.lastLocation.hasServerTime,
                  vehicle.lastLocation.serverTime.date >= oldest,
                  vehicle.maximumCapacity >= request.minimumCapacity,
                  vehicle.hasVehicleType, wantedCategories.contains(vehicle.vehicleType.category),
                  hasRequiredAttributes(vehicle.attributes, request),
                  let offer = offer(vehicle, trips: activeTrips.trips(of: id), request, status: status)
            else { continue }
            let distance = vehicle.lastLocation.location.distance(to: pickup)
            guard distance <= Double(request.pickupRadiusMeters) else { continue }
            found.append(Candidate(id: id, distanceMeters: distance, tripType: offer.tripType, matchType: offer.matchType))
        }
        found.sort { ($0.distanceMeters, $0.id) < ($1.distanceMeters, $1.id) }
        return Array(found.prefix(Int(request.count)))
    }

    /// How `vehicle`, with unfinished `trips`, could take the trip, if at all: alone when it
    /// has none; beside them (`CARPOOL`, a shared trip) or after them (`BACK_TO_BACK`) when
    /// `currentTripsPresent` is `ANY`; after its one trip en route to its dropoff when
    /// `currentTripsPresent` is unset and `includeBackToBack` is true.
    private static func offer(
        _ vehicle: Vehicle, trips: [String], _ request: SearchVehiclesRequest, status: (String) -> TripStatus?
    ) -> (tripType: TripType, matchType: VehicleMatch.VehicleMatchType)? {
        let supported = Set(vehicle.supportedTripTypes).intersection(request.tripTypes)
        let exclusive = supported.contains(.exclusive)
        if trips.isEmpty {
            guard let type = exclusive ? TripType.exclusive : supported.first else { return nil }
            return (type, .exclusive)
        }
        switch request.currentTripsPresent {
        case .none:
            return nil
        case .any:
            guard trips.count <= maximumCurrentTrips else { return nil }
            if supported.contains(.shared) { return (.shared, .carpool) }
            return exclusive ? (.exclusive, .backToBack) : nil
        case .unspecified, .UNRECOGNIZED:
            guard request.includeBackToBack, exclusive, trips.count == 1, status(trips[0]) == .enrouteToDropoff else { return nil }
            return (.exclusive, .backToBack)
        }
    }

    /// Whether `attributes` meet the request's attribute filters.
    private static func hasRequiredAttributes(_ attributes: [VehicleAttribute], _ request: SearchVehiclesRequest) -> Bool {
        let has = { (wanted: VehicleAttribute) in attributes.contains { $0.hasSameValue(as: wanted) } }
        guard request.requiredAttributes.allSatisfy(has) else { return false }
        guard request.requiredOneOfAttributes.allSatisfy({ $0.attributes.contains(where: has) }) else { return false }
        let sets = request.requiredOneOfAttributeSets
        return sets.isEmpty || sets.contains { $0.attributes.allSatisfy(has) }
    }
}
