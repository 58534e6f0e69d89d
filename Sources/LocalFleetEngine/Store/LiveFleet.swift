import Foundation
import ServerHTTP

/// The vehicles and trips of one provider as ``FleetState`` keeps them under its lock: what
/// is saved (what reads show), the writes accepted and not yet saved, and the queue of the
/// next batch. Every write is checked against everything accepted before it, saved or not.
struct LiveFleet {
    private let provider: String
    private var vehicles: [String: Vehicle]
    private var trips: [String: Trip]
    /// The unfinished trips of saved state: what reads show.
    private var activeTrips = ActiveTripIndex()
    /// The unfinished trips of every accepted write, saved or not: what a write's result shows,
    /// so that it reflects every write accepted before it (which are all saved by the time its
    /// caller is released).
    private var acceptedActiveTrips = ActiveTripIndex()
    /// Accepted writes not yet saved, by id (`nil`: a deletion).
    private var pendingVehicles: [String: (sequence: UInt64, vehicle: Vehicle?)] = [:]
    private var pendingTrips: [String: (sequence: UInt64, trip: Trip?)] = [:]
    /// Accepted writes not yet handed to the store, oldest first.
    private var queue: [PendingWrite] = []
    /// How many writes were accepted since start: saved, failed or waiting for their save.
    private(set) var acceptedWriteCount: UInt64 = 0
    /// Whether a commit is scheduled or under way: one at a time, batch after batch until the
    /// queue is empty, so that batches are saved in the order they were accepted.
    var isCommitting = false
    /// Callers of ``FleetState/drain()``, resumed when the commit under way ends.
    var drainWaiters: [CheckedContinuation<Void, Never>] = []

    /// The saved state `snapshot` of `provider`.
    init(provider: String, snapshot: FleetSnapshot) {
        self.provider = provider
        self.vehicles = snapshot.vehicles
        self.trips = snapshot.trips
        for (id, trip) in snapshot.trips { activeTrips.record(tripID: id, old: nil, new: trip) }
        acceptedActiveTrips = activeTrips
    }

    // MARK: Reads (saved state only)

    /// The vehicle, with its name and current trips, or `nil`.
    func vehicle(_ id: String) -> Vehicle? {
        vehicles[id].map { presented($0, id: id, trips: activeTrips) }
    }

    /// The trip, or `nil`.
    func trip(_ id: String) -> Trip? {
        trips[id]
    }

    /// The vehicles, as the API shows them, that `isIncluded` accepts, sorted by id.
    func vehicles(where isIncluded: @Sendable (Vehicle) -> Bool) -> [(id: String, vehicle: Vehicle)] {
        vehicles.keys.sorted().compactMap { id in
            guard let vehicle = vehicles[id] else { return nil }
            let shown = presented(vehicle, id: id, trips: activeTrips)
            return isIncluded(shown) ? (id, shown) : nil
        }
    }

    /// The trips that `isIncluded` accepts, sorted by id.
    func trips(where isIncluded: @Sendable (Trip) -> Bool) -> [(id: String, trip: Trip)] {
        trips.keys.sorted().compactMap { id in trips[id].flatMap { isIncluded($0) ? (id, $0) : nil } }
    }

    /// The vehicles that match `request` at `now`, nearest first.
    /// Each match says that it is ordered by straight-line distance, whatever order was asked
    /// for: the engine has no road network.
    func search(_ request: SearchVehiclesRequest, now: Date) -> [VehicleMatch] {
        let candidates = VehicleSearch.candidates(
            for: request, among: vehicles, activeTrips: activeTrips, now: now, status: { self.trips[$0]?.tripStatus })
        return candidates.compactMap { candidate in
            vehicles[candidate.id].map { vehicle in
                .with { match in
                    match.vehicle = presented(vehicle, id: candidate.id, trips: activeTrips)
                    match.vehiclePickupStraightLineDistanceMeters = .init(Int32(clamping: Int(candidate.distanceMeters.rounded())))
                    match.tripType = candidate.tripType
                    match.vehicleMatchType = candidate.matchType
                    match.requestedOrderedBy = request.orderBy
                    match.orderedBy = .pickupPointStraightDistance
                }
            }
        }
    }

    // MARK: Accepting writes

    /// Accepts a new vehicle; 409 when the id is taken.
    mutating func acceptVehicleCreation(_ id: String, _ vehicle: Vehicle) throws -> Accepted<Vehicle> {
        guard latestVehicle(id) == nil else { throw APIError.alreadyExists("vehicle '\(id)' already exists") }
        var created = vehicle
        created.name = ResourceName.vehicle(provider: provider, id: id)
        created.currentTrips = []
        return Accepted(value: presented(created, id: id, trips: acceptedActiveTrips), acknowledgement: write(.vehicle(id: id, created)))
    }

    /// Accepts new values of a vehicle's `fields`; 404 when there is no such vehicle.
    mutating func acceptVehicleUpdate(_ id: String, with update: Vehicle, fields: Set<VehicleField>) throws -> Accepted<Vehicle> {
        guard let current = latestVehicle(id) else { throw APIError.notFound("vehicle '\(id)' does not exist") }
        let updated = current.applying(update, fields: fields)
        return Accepted(value: presented(updated, id: id, trips: acceptedActiveTrips), acknowledgement: write(.vehicle(id: id, updated)))
    }

    /// Accepts attributes merged into a vehicle's by key; 404 without the vehicle, 400 over the limit.
    mutating func acceptAttributeMerge(_ id: String, _ attributes: [VehicleAttribute]) throws -> Accepted<[VehicleAttribute]> {
        guard var vehicle = latestVehicle(id) else { throw APIError.notFound("vehicle '\(id)' does not exist") }
        var merged = vehicle.attributes
        for attribute in attributes {
            if let index = merged.firstIndex(where: { $0.key == attribute.key }) {
                merged[index] = attribute
            } else {
                merged.append(attribute)
            }
        }
        guard merged.count <= Vehicle.maximumAttributes else {
            throw APIError.invalidArgument("the vehicle would have \(merged.count) attributes; at most \(Vehicle.maximumAttributes) are allowed")
        }
        vehicle.attributes = merged
        return Accepted(value: merged, acknowledgement: write(.vehicle(id: id, vehicle)))
    }

    /// Accepts a vehicle's removal; 404 without it, 400 while it has unfinished trips.
    mutating func acceptVehicleDeletion(_ id: String) throws -> Accepted<Void> {
        guard latestVehicle(id) != nil else { throw APIError.notFound("vehicle '\(id)' does not exist") }
        let unfinished = acceptedActiveTrips.trips(of: id)
        guard unfinished.isEmpty else {
            throw APIError.failedPrecondition(
                "vehicle '\(id)' has unfinished trips (\(unfinished.joined(separator: ", "))); complete, cancel or reassign them first")
        }
        return Accepted(value: (), acknowledgement: write(.deletedVehicle(id: id)))
    }

    /// Accepts a trip's removal; 404 without it, 400 while it is unfinished and assigned.
    mutating func acceptTripDeletion(_ id: String) throws -> Accepted<Void> {
        guard let trip = latestTrip(id) else { throw APIError.notFound("trip '\(id)' does not exist") }
        if trip.isActive, !trip.vehicleID.isEmpty {
            throw APIError.failedPrecondition(
                "trip '\(id)' is unfinished and assigned to vehicle '\(trip.vehicleID)'; complete or cancel it, or clear its vehicleId, first")
        }
        return Accepted(value: (), acknowledgement: write(.deletedTrip(id: id)))
    }

    /// Accepts a new trip, in status `NEW`; 409 when the id is taken, 400 without its vehicle.
    mutating func acceptTripCreation(_ id: String, _ trip: Trip) throws -> Accepted<Trip> {
        guard latestTrip(id) == nil else { throw APIError.alreadyExists("trip '\(id)' already exists") }
        try requireVehicle(trip.vehicleID)
        var created = trip
        created.name = ResourceName.trip(provider: provider, id: id)
        created.tripStatus = .new
        return Accepted(value: created, acknowledgement: write(.trip(id: id, created)))
    }

    /// Accepts new values of a trip's `fields` once the driver's `decision` allows this trip.
    mutating func acceptTripUpdate(_ id: String, with update: Trip, fields: Set<TripField>, decision: AccessDecision) throws -> Accepted<Trip> {
        let current = latestTrip(id)
        if case .denied(let rule) = decision.resolved(tripVehicleID: current?.vehicleID) { throw APIError.permissionDenied(rule) }
        guard let current else { throw APIError.notFound("trip '\(id)' does not exist") }
        do {
            try update.validateStatusChange(from: current, fields: fields)
        } catch {
            throw APIError.invalidArgument(error.description)
        }
        if fields.contains(.vehicleId) { try requireVehicle(update.vehicleID) }
        let updated = current.applying(update, fields: fields)
        return Accepted(value: updated, acknowledgement: write(.trip(id: id, updated)))
    }

    // MARK: Saving

    /// Takes the next batch of at most `maximum` writes off the queue, if there is one.
    mutating func nextBatch(atMost maximum: Int) -> [PendingWrite]? {
        guard !queue.isEmpty else { return nil }
        let batch = Array(queue.prefix(maximum))
        queue.removeFirst(batch.count)
        return batch
    }

    /// Makes a saved write visible, and forgets it as pending unless a later write superseded it.
    mutating func publish(_ write: PendingWrite) {
        switch write.record {
        case .vehicle(let id, let vehicle): publish(vehicle: vehicle, id: id, sequence: write.sequence)
        case .deletedVehicle(let id): publish(vehicle: nil, id: id, sequence: write.sequence)
        case .trip(let id, let trip): publish(trip: trip, id: id, sequence: write.sequence)
        case .deletedTrip(let id): publish(trip: nil, id: id, sequence: write.sequence)
        }
    }

    /// Makes a saved vehicle (or its deletion, `nil`) visible.
    private mutating func publish(vehicle: Vehicle?, id: String, sequence: UInt64) {
        vehicles[id] = vehicle
        if pendingVehicles[id]?.sequence == sequence { pendingVehicles[id] = nil }
    }

    /// Makes a saved trip (or its deletion, `nil`) visible.
    private mutating func publish(trip: Trip?, id: String, sequence: UInt64) {
        activeTrips.record(tripID: id, old: trips[id], new: trip)
        trips[id] = trip
        if pendingTrips[id]?.sequence == sequence { pendingTrips[id] = nil }
    }

    /// Forgets every write not yet saved (they fail with the batch that failed, since later ones
    /// may build on it) and returns them, the batch's first.
    mutating func dropUnsaved(after failedBatch: [PendingWrite]) -> [PendingWrite] {
        defer { queue.removeAll() }
        pendingVehicles.removeAll()
        pendingTrips.removeAll()
        acceptedActiveTrips = activeTrips
        return failedBatch + queue
    }

    // MARK: Helpers

    /// Queues `record` for the next batch.
    private mutating func write(_ record: FleetRecord) -> WriteAcknowledgement {
        acceptedWriteCount += 1
        let sequence = acceptedWriteCount
        switch record {
        case .vehicle(let id, let vehicle): pendingVehicles[id] = (sequence, vehicle)
        case .deletedVehicle(let id): pendingVehicles[id] = (sequence, nil)
        case .trip(let id, let trip):
            acceptedActiveTrips.record(tripID: id, old: latestTrip(id), new: trip)
            pendingTrips[id] = (sequence, trip)
        case .deletedTrip(let id):
            acceptedActiveTrips.record(tripID: id, old: latestTrip(id), new: nil)
            pendingTrips[id] = (sequence, nil)
        }
        let acknowledgement = WriteAcknowledgement()
        queue.append(PendingWrite(sequence: sequence, record: record, acknowledgement: acknowledgement))
        return acknowledgement
    }

    private func latestVehicle(_ id: String) -> Vehicle? {
        if let pending = pendingVehicles[id] { return pending.vehicle }
        return vehicles[id]
    }

    private func latestTrip(_ id: String) -> Trip? {
        if let pending = pendingTrips[id] { return pending.trip }
        return trips[id]
    }

    private func requireVehicle(_ vehicleID: String) throws {
        guard !vehicleID.isEmpty else { return }
        guard latestVehicle(vehicleID) != nil else {
            throw APIError.invalidArgument("vehicleId '\(vehicleID)' names no vehicle of provider '\(provider)'")
        }
    }

    /// The vehicle as the API shows it: its name, and its current trips from `trips`.
    private func presented(_ vehicle: Vehicle, id: String, trips: ActiveTripIndex) -> Vehicle {
        var shown = vehicle
        shown.name = ResourceName.vehicle(provider: provider, id: id)
        shown.currentTrips = trips.trips(of: id)
        return shown
    }
}
