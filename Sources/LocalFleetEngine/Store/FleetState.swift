import Foundation
import Logging
import ServerHTTP

/// The live vehicles and trips of one provider, and the single writer that saves them.
///
/// Reads see only what is durable. A write is checked against everything accepted so far
/// (saved or not), joins the queue, and its caller waits until the batch holding it is saved
/// (group commit): while one batch is being saved, the next fills up, so a busy server
/// commits thousands of updates at a time and an idle one commits each at once. When a save
/// fails, every write not yet saved fails with it and nothing of them is ever shown.
///
/// The state is loaded once at start: one local Fleet Engine process owns its database.
actor FleetState {
    /// The most writes saved in one transaction.
    static let maximumBatch = 4096

    private let store: any FleetStore
    private let provider: String
    private let logger: Logger

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
    private var queue: [PendingWrite] = []
    private var nextSequence: UInt64 = 0
    private var flushing: Task<Void, Never>?

    /// Loads the state of `provider` from `store`.
    init(store: any FleetStore, provider: String, logger: Logger) async throws {
        let snapshot = try await store.load(provider: provider)
        self.store = store
        self.provider = provider
        self.logger = logger
        self.vehicles = snapshot.vehicles
        self.trips = snapshot.trips
        for (id, trip) in snapshot.trips { activeTrips.record(tripID: id, old: nil, new: trip) }
        acceptedActiveTrips = activeTrips
    }

    // MARK: Reads (durable state only)

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

    // MARK: Writes (acknowledged once durable)

    /// Creates a vehicle; 409 when the id is taken. Returns once saved.
    nonisolated func createVehicle(_ id: String, _ vehicle: Vehicle) async throws -> Vehicle {
        try await acceptVehicleCreation(id, vehicle).saved()
    }

    /// Sets `fields` of a vehicle from `update`; 404 when there is no such vehicle. Returns once
    /// saved, with the current trips of every write accepted before it.
    nonisolated func updateVehicle(_ id: String, with update: Vehicle, fields: Set<VehicleField>) async throws -> Vehicle {
        try await acceptVehicleUpdate(id, with: update, fields: fields).saved()
    }

    /// Merges `attributes` into the vehicle's by key (replacing those with the same key and
    /// adding the others); 404 when there is no such vehicle, 400 when it would then carry more
    /// than ``Vehicle/maximumAttributes``. Returns all of the vehicle's attributes once saved.
    nonisolated func mergeAttributes(_ id: String, _ attributes: [VehicleAttribute]) async throws -> [VehicleAttribute] {
        try await acceptAttributeMerge(id, attributes).saved()
    }

    /// Deletes a vehicle; 404 when there is none, 400 `FAILED_PRECONDITION` while it has
    /// unfinished trips. Returns once saved.
    nonisolated func deleteVehicle(_ id: String) async throws {
        try await acceptVehicleDeletion(id).saved()
    }

    /// Deletes a trip; 404 when there is none, 400 `FAILED_PRECONDITION` while it is unfinished
    /// and assigned to a vehicle. Returns once saved.
    nonisolated func deleteTrip(_ id: String) async throws {
        try await acceptTripDeletion(id).saved()
    }

    /// Creates a trip in status `NEW` (whatever status the request gave, as Fleet Engine does);
    /// 409 when the id is taken, 400 when its vehicle does not exist. Returns once saved.
    nonisolated func createTrip(_ id: String, _ trip: Trip) async throws -> Trip {
        try await acceptTripCreation(id, trip).saved()
    }

    /// Sets `fields` of a trip from `update`. A driver's `decision` is checked against the
    /// trip as it is now (403 for a trip not assigned to its vehicle, existing or not); then
    /// 404 when there is no such trip, and 400 when the update would change a finished trip or
    /// assign a vehicle that does not exist. Returns once saved.
    nonisolated func updateTrip(_ id: String, with update: Trip, fields: Set<TripField>, decision: AccessDecision) async throws -> Trip {
        try await acceptTripUpdate(id, with: update, fields: fields, decision: decision).saved()
    }

    private func acceptVehicleCreation(_ id: String, _ vehicle: Vehicle) throws -> Accepted<Vehicle> {
        guard latestVehicle(id) == nil else { throw APIError.alreadyExists("vehicle '\(id)' already exists") }
        var created = vehicle
        created.name = ResourceName.vehicle(provider: provider, id: id)
        created.currentTrips = []
        return Accepted(value: presented(created, id: id, trips: acceptedActiveTrips), acknowledgement: write(.vehicle(id: id, created)))
    }

    private func acceptVehicleUpdate(_ id: String, with update: Vehicle, fields: Set<VehicleField>) throws -> Accepted<Vehicle> {
        guard let current = latestVehicle(id) else { throw APIError.notFound("vehicle '\(id)' does not exist") }
        let updated = current.applying(update, fields: fields)
        return Accepted(value: presented(updated, id: id, trips: acceptedActiveTrips), acknowledgement: write(.vehicle(id: id, updated)))
    }

    private func acceptAttributeMerge(_ id: String, _ attributes: [VehicleAttribute]) throws -> Accepted<[VehicleAttribute]> {
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

    private func acceptVehicleDeletion(_ id: String) throws -> Accepted<Void> {
        guard latestVehicle(id) != nil else { throw APIError.notFound("vehicle '\(id)' does not exist") }
        let unfinished = acceptedActiveTrips.trips(of: id)
        guard unfinished.isEmpty else {
            throw APIError.failedPrecondition(
                "vehicle '\(id)' has unfinished trips (\(unfinished.joined(separator: ", "))); complete, cancel or reassign them first")
        }
        return Accepted(value: (), acknowledgement: write(.deletedVehicle(id: id)))
    }

    private func acceptTripDeletion(_ id: String) throws -> Accepted<Void> {
        guard let trip = latestTrip(id) else { throw APIError.notFound("trip '\(id)' does not exist") }
        if trip.isActive, !trip.vehicleID.isEmpty {
            throw APIError.failedPrecondition(
                "trip '\(id)' is unfinished and assigned to vehicle '\(trip.vehicleID)'; complete or cancel it, or clear its vehicleId, first")
        }
        return Accepted(value: (), acknowledgement: write(.deletedTrip(id: id)))
    }

    private func acceptTripCreation(_ id: String, _ trip: Trip) throws -> Accepted<Trip> {
        guard latestTrip(id) == nil else { throw APIError.alreadyExists("trip '\(id)' already exists") }
        try requireVehicle(trip.vehicleID)
        var created = trip
        created.name = ResourceName.trip(provider: provider, id: id)
        created.tripStatus = .new
        return Accepted(value: created, acknowledgement: write(.trip(id: id, created)))
    }

    private func acceptTripUpdate(_ id: String, with update: Trip, fields: Set<TripField>, decision: AccessDecision) throws -> Accepted<Trip> {
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

    /// How many writes were accepted since start: saved, failed or waiting for their save.
    var acceptedWriteCount: UInt64 { nextSequence }

    /// Waits until every accepted write is saved or failed.
    func drain() async {
        while let flushing { await flushing.value }
    }

    // MARK: Group commit

    /// Queues `record` for the next batch (starting a save when none is under way).
    private func write(_ record: FleetRecord) -> WriteAcknowledgement {
        nextSequence += 1
        switch record {
        case .vehicle(let id, let vehicle): pendingVehicles[id] = (nextSequence, vehicle)
        case .deletedVehicle(let id): pendingVehicles[id] = (nextSequence, nil)
        case .trip(let id, let trip):
            acceptedActiveTrips.record(tripID: id, old: latestTrip(id), new: trip)
            pendingTrips[id] = (nextSequence, trip)
        case .deletedTrip(let id):
            acceptedActiveTrips.record(tripID: id, old: latestTrip(id), new: nil)
            pendingTrips[id] = (nextSequence, nil)
        }
        let acknowledgement = WriteAcknowledgement()
        queue.append(PendingWrite(sequence: nextSequence, record: record, acknowledgement: acknowledgement))
        if flushing == nil {
            // High priority: a commit releases every request waiting on it, so it should not
            // queue behind them.
            flushing = Task(priority: .high) { await self.flush() }
        }
        return acknowledgement
    }

    private func flush() async {
        while !queue.isEmpty {
            let batch = Array(queue.prefix(Self.maximumBatch))
            queue.removeFirst(batch.count)
            do {
                try await store.save(batch.map(\.record), provider: provider)
                for write in batch { publish(write) }
                for write in batch { write.acknowledgement.complete(.success(())) }
            } catch {
                fail(batch + queue, because: error)
                queue.removeAll()
            }
        }
        flushing = nil
    }

    /// Makes a saved write visible, and forgets it as pending unless a later write superseded it.
    private func publish(_ write: PendingWrite) {
        switch write.record {
        case .vehicle(let id, let vehicle): publish(vehicle: vehicle, id: id, sequence: write.sequence)
        case .deletedVehicle(let id): publish(vehicle: nil, id: id, sequence: write.sequence)
        case .trip(let id, let trip): publish(trip: trip, id: id, sequence: write.sequence)
        case .deletedTrip(let id): publish(trip: nil, id: id, sequence: write.sequence)
        }
    }

    /// Makes a saved vehicle (or its deletion, `nil`) visible.
    private func publish(vehicle: Vehicle?, id: String, sequence: UInt64) {
        vehicles[id] = vehicle
        if pendingVehicles[id]?.sequence == sequence { pendingVehicles[id] = nil }
    }

    /// Makes a saved trip (or its deletion, `nil`) visible.
    private func publish(trip: Trip?, id: String, sequence: UInt64) {
        activeTrips.record(tripID: id, old: trips[id], new: trip)
        trips[id] = trip
        if pendingTrips[id]?.sequence == sequence { pendingTrips[id] = nil }
    }

    /// Fails `writes` (every write not yet saved; later ones may build on the failed ones).
    private func fail(_ writes: [PendingWrite], because error: any Error) {
        logger.error("saving vehicles and trips failed", metadata: ["writes": "\(writes.count)", "error": "\(error)"])
        pendingVehicles.removeAll()
        pendingTrips.removeAll()
        acceptedActiveTrips = activeTrips
        let refusal = APIError(.unavailable, "the change could not be saved and was not made; try again")
        for write in writes { write.acknowledgement.complete(.failure(refusal)) }
    }

    // MARK: Helpers

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
