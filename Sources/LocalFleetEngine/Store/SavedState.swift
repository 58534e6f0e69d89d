import Foundation

/// What reads show of a provider's vehicles and trips (and, in ``deliveries``, its delivery
/// vehicles and tasks): everything saved, nothing else, with the
/// indexes that make a search or a page of vehicles cost what it returns (``VehicleIndexes``).
/// A value: ``EngineState`` reads it under its lock, and copies it (or only its trips) out of
/// the lock for the reads that look at every vehicle or trip, so that no write waits for them.
struct SavedState: Sendable {
    let provider: String
    private(set) var vehicles: [String: Vehicle]
    private(set) var trips: [String: Trip]
    /// The unfinished trips of saved state.
    private(set) var activeTrips = ActiveTripIndex()
    /// Where the vehicles are, and their ids in order by category and state.
    private(set) var indexes = VehicleIndexes()
    /// The ids of every trip, finished or not, by the vehicle it is assigned to.
    private var tripsByVehicle: [String: SortedIDs] = [:]
    /// The delivery vehicles and tasks.
    var deliveries: SavedDeliveries

    /// The saved state `snapshot` of `provider`.
    init(provider: String, snapshot: ProviderSnapshot) {
        self.provider = provider
        self.vehicles = snapshot.vehicles
        self.trips = snapshot.trips
        self.deliveries = SavedDeliveries(vehicles: snapshot.deliveryVehicles, tasks: snapshot.tasks)
        for (id, trip) in snapshot.trips {
            activeTrips.record(tripID: id, old: nil, new: trip)
            recordVehicle(ofTrip: id, old: nil, new: trip)
        }
        for (id, vehicle) in snapshot.vehicles { indexes.record(id: id, old: nil, new: vehicle) }
    }

    /// The vehicle, with its name and current trips, or `nil`.
    func vehicle(_ id: String) -> Vehicle? {
        vehicles[id].map { presented($0, id: id, trips: activeTrips) }
    }

    /// The trip, or `nil`.
    func trip(_ id: String) -> Trip? {
        trips[id]
    }

    /// The page of vehicles a validated ListVehicles `query` asks for at `now`, with its total
    /// only when the indexes count it (see ``VehicleListing/page(_:now:indexes:shown:)``).
    func listVehicles(_ query: ListVehiclesRequest, now: Date) throws(InvalidArgument) -> ListVehiclesResponse {
        try VehicleListing.page(query, now: now, indexes: indexes, shown: vehicle)
    }

    /// How many vehicles pass a validated ListVehicles `query` at `now`, one by one.
    func countVehicles(_ query: ListVehiclesRequest, now: Date) -> Int {
        VehicleListing.count(query, now: now, indexes: indexes, shown: vehicle)
    }

    /// The trips assigned to `vehicleID` that `isIncluded` accepts, sorted by id: at the cost
    /// of that vehicle's trips, not of all.
    func trips(ofVehicle vehicleID: String, where isIncluded: (Trip) -> Bool) -> [(id: String, trip: Trip)] {
        guard let ids = tripsByVehicle[vehicleID] else { return [] }
        return IteratorSequence(ids.ids(after: nil)).compactMap { id in
            trips[id].flatMap { isIncluded($0) ? (id, $0) : nil }
        }
    }

    /// The vehicles that match `request` at `now`, nearest first.
    /// Each match says that it is ordered by straight-line distance, whatever order was asked
    /// for: the engine has no road network.
    func search(_ request: SearchVehiclesRequest, now: Date) -> [VehicleMatch] {
        let nearby = indexes.positions.cells(within: Double(request.pickupRadiusMeters), of: request.pickupPoint.point)
        let candidates = VehicleSearch.candidates(
            for: request, among: nearby, of: vehicles, activeTrips: activeTrips, now: now,
            status: { self.trips[$0]?.tripStatus })
        return candidates.compactMap { candidate in
            vehicles[candidate.id].map { vehicle in
                .with { match in
                    match.vehicle = presented(vehicle, id: candidate.id, trips: activeTrips)
                    match.vehiclePickupStraightLineDistanceMeters = .init(
                        Int32(clamping: Int(candidate.distanceMeters.rounded())))
                    match.tripType = candidate.tripType
                    match.vehicleMatchType = candidate.matchType
                    match.requestedOrderedBy = request.orderBy
                    match.orderedBy = .pickupPointStraightDistance
                }
            }
        }
    }

    // MARK: Saving

    /// Makes a saved vehicle (or its deletion, `nil`) visible.
    mutating func publish(vehicle: Vehicle?, id: String) {
        indexes.record(id: id, old: vehicles[id], new: vehicle)
        vehicles[id] = vehicle
    }

    /// Forgets every vehicle and trip at once (a harness's reset), where removing them one by
    /// one would update every index for each.
    mutating func removeAllVehiclesAndTrips() {
        vehicles = [:]
        trips = [:]
        activeTrips = ActiveTripIndex()
        indexes = VehicleIndexes()
        tripsByVehicle = [:]
    }

    /// Makes a saved trip (or its deletion, `nil`) visible.
    mutating func publish(trip: Trip?, id: String) {
        activeTrips.record(tripID: id, old: trips[id], new: trip)
        recordVehicle(ofTrip: id, old: trips[id], new: trip)
        trips[id] = trip
    }

    /// Takes note that trip `id` moved from `old`'s vehicle to `new`'s (`nil`: none, or deleted).
    private mutating func recordVehicle(ofTrip id: String, old: Trip?, new: Trip?) {
        let oldVehicle = old?.vehicleID ?? "", newVehicle = new?.vehicleID ?? ""
        guard oldVehicle != newVehicle else { return }
        if !oldVehicle.isEmpty {
            tripsByVehicle[oldVehicle]?.remove(id)
            if tripsByVehicle[oldVehicle]?.count == 0 { tripsByVehicle[oldVehicle] = nil }
        }
        if !newVehicle.isEmpty { tripsByVehicle[newVehicle, default: SortedIDs()].insert(id) }
    }

    /// The vehicle as the API shows it: its name, and its current trips from `trips`.
    func presented(_ vehicle: Vehicle, id: String, trips: ActiveTripIndex) -> Vehicle {
        var shown = vehicle
        shown.name = ResourceName.vehicle(provider: provider, id: id)
        shown.currentTrips = trips.trips(of: id)
        return shown
    }
}
