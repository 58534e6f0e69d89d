import FleetAuthServerHTTP
import Foundation
import NIOCore
import NIOPosix

/// The resources of one provider as ``EngineState`` keeps them under its lock: what
/// is saved (what reads show), the writes accepted and not yet saved, and the queue of the
/// next batch. Every write is checked against everything accepted before it, saved or not.
struct ProviderState {
    /// What is saved: what reads show.
    private(set) var saved: SavedState
    /// The unfinished trips of every accepted write, saved or not: what a write's result shows,
    /// so that it reflects every write accepted before it (which are all saved by the time its
    /// caller is released).
    private var acceptedActiveTrips = ActiveTripIndex()
    /// Accepted writes not yet saved, by kind and id.
    private var pendingVehicles = PendingChanges<Vehicle>()
    private var pendingTrips = PendingChanges<Trip>()
    var pendingDeliveryVehicles = PendingChanges<DeliveryVehicle>()
    var pendingTasks = PendingChanges<DeliveryTask>()
    /// Accepted writes not yet handed to the store, oldest first.
    private var queue: [PendingWrite] = []
    /// The event loop that accepted the queue's first write (`nil`: a task did): where its
    /// batch is saved.
    private(set) var queueOrigin: (any EventLoop)?
    /// How many writes were accepted since start: saved, failed or waiting for their save.
    private(set) var acceptedWriteCount: UInt64 = 0
    /// Whether a commit is scheduled or under way: one at a time, batch after batch until the
    /// queue is empty, so that batches are saved in the order they were accepted.
    var isCommitting = false
    /// Whether the queue has writes.
    var hasQueuedWrites: Bool { !queue.isEmpty }
    /// Callers of ``EngineState/drain()``, resumed when the commit under way ends.
    var drainWaiters: [CheckedContinuation<Void, Never>] = []

    /// The saved state `snapshot` of `provider`.
    init(provider: String, snapshot: ProviderSnapshot) {
        saved = SavedState(provider: provider, snapshot: snapshot)
        acceptedActiveTrips = saved.activeTrips
    }

    // MARK: Accepting writes

    /// Accepts a new vehicle; 409 when the id is taken.
    mutating func acceptVehicleCreation(_ id: String, _ vehicle: Vehicle) throws -> Accepted<Vehicle> {
        guard latestVehicle(id) == nil else { throw APIError.alreadyExists("vehicle '\(id)' already exists") }
        var created = vehicle
        created.name = ResourceName.vehicle(provider: saved.provider, id: id)
        created.currentTrips = []
        return Accepted(
            value: saved.presented(created, id: id, trips: acceptedActiveTrips),
            acknowledgement: write(.vehicle(id: id, created)))
    }

    /// Accepts new values of a vehicle's `fields`; 404 when there is no such vehicle.
    mutating func acceptVehicleUpdate(_ id: String, with update: Vehicle, fields: Set<VehicleField>) throws -> Accepted<
        Vehicle
    > {
        guard let current = latestVehicle(id) else { throw APIError.notFound("vehicle '\(id)' does not exist") }
        let updated = current.applying(update, fields: fields)
        return Accepted(
            value: saved.presented(updated, id: id, trips: acceptedActiveTrips),
            acknowledgement: write(.vehicle(id: id, updated)))
    }

    /// Accepts attributes merged into a vehicle's by key; 404 without the vehicle, 400 over the limit.
    mutating func acceptAttributeMerge(_ id: String, _ attributes: [VehicleAttribute]) throws -> Accepted<
        [VehicleAttribute]
    > {
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
            throw APIError.invalidArgument(
                "the vehicle would have \(merged.count) attributes; at most \(Vehicle.maximumAttributes) are allowed")
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
                "vehicle '\(id)' has unfinished trips (\(unfinished.joined(separator: ", "))); complete, cancel or reassign them first"
            )
        }
        return Accepted(value: (), acknowledgement: write(.deletedVehicle(id: id)))
    }

    /// Accepts a trip's removal; 404 without it, 400 while it is unfinished and assigned.
    mutating func acceptTripDeletion(_ id: String) throws -> Accepted<Void> {
        guard let trip = latestTrip(id) else { throw APIError.notFound("trip '\(id)' does not exist") }
        if trip.isActive, !trip.vehicleID.isEmpty {
            throw APIError.failedPrecondition(
                "trip '\(id)' is unfinished and assigned to vehicle '\(trip.vehicleID)'; complete or cancel it, or clear its vehicleId, first"
            )
        }
        return Accepted(value: (), acknowledgement: write(.deletedTrip(id: id)))
    }

    /// Accepts a new trip, in status `NEW`; 409 when the id is taken, 400 without its vehicle.
    mutating func acceptTripCreation(_ id: String, _ trip: Trip) throws -> Accepted<Trip> {
        guard latestTrip(id) == nil else { throw APIError.alreadyExists("trip '\(id)' already exists") }
        try requireVehicle(trip.vehicleID)
        var created = trip
        created.name = ResourceName.trip(provider: saved.provider, id: id)
        created.tripStatus = .new
        return Accepted(value: created, acknowledgement: write(.trip(id: id, created)))
    }

    /// Accepts new values of a trip's `fields` once the driver's `decision` allows this trip.
    mutating func acceptTripUpdate(_ id: String, with update: Trip, fields: Set<TripField>, decision: AccessDecision)
        throws -> Accepted<Trip>
    {
        let current = latestTrip(id)
        if case .denied(let rule) = decision.resolved(tripVehicleID: current?.vehicleID) {
            throw APIError.permissionDenied(rule)
        }
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

    /// Accepts the removal of every resource of `kinds`, saved or accepted, as one write, with
    /// no rule checked (a test harness's reset): the caller names the kinds that depend on
    /// those it empties.
    mutating func acceptReset(_ kinds: Set<ResourceKind>) -> Accepted<Void> {
        var records: [ResourceChange] = []
        if kinds.contains(.trip) { records += pendingTrips.latestIDs(saved: saved.trips).map { .deletedTrip(id: $0) } }
        if kinds.contains(.vehicle) {
            records += pendingVehicles.latestIDs(saved: saved.vehicles).map { .deletedVehicle(id: $0) }
        }
        if kinds.contains(.task) {
            records += pendingTasks.latestIDs(saved: saved.deliveries.tasks).map { .deletedTask(id: $0) }
        }
        if kinds.contains(.deliveryVehicle) {
            records += pendingDeliveryVehicles.latestIDs(saved: saved.deliveries.vehicles).map {
                .deletedDeliveryVehicle(id: $0)
            }
        }
        // Once this write is published, every write before it is too: it removes exactly the
        // vehicles and trips then saved.
        return Accepted(value: (), acknowledgement: write(records, emptiesVehiclesAndTrips: kinds.contains(.vehicle)))
    }

    /// Accepts every resource of `snapshot` as one write; refused unless the engine has no
    /// resource at all, saved or accepted.
    mutating func acceptImport(_ snapshot: ProviderSnapshot) throws -> Accepted<Void> {
        let isEmpty = saved.snapshot.isEmpty && !hasQueuedWrites && !isCommitting
        guard isEmpty else { throw APIError.failedPrecondition(FleetDocument.notEmpty) }
        let records = snapshot.records
        return Accepted(value: (), acknowledgement: write(records))
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
        let emptiesVehiclesAndTrips = write.emptiesVehiclesAndTrips
        if emptiesVehiclesAndTrips { saved.removeAllVehiclesAndTrips() }
        for record in write.records {
            switch record {
            case .deletedVehicle(let id) where emptiesVehiclesAndTrips:
                pendingVehicles.saved(id, sequence: write.sequence)
            case .deletedTrip(let id) where emptiesVehiclesAndTrips: pendingTrips.saved(id, sequence: write.sequence)
            case .vehicle(let id, let vehicle): publish(vehicle: vehicle, id: id, sequence: write.sequence)
            case .deletedVehicle(let id): publish(vehicle: nil, id: id, sequence: write.sequence)
            case .trip(let id, let trip): publish(trip: trip, id: id, sequence: write.sequence)
            case .deletedTrip(let id): publish(trip: nil, id: id, sequence: write.sequence)
            case .deliveryVehicle(let id, let vehicle):
                saved.deliveries.publish(vehicle: vehicle, id: id)
                pendingDeliveryVehicles.saved(id, sequence: write.sequence)
            case .deletedDeliveryVehicle(let id):
                saved.deliveries.publish(vehicle: nil, id: id)
                pendingDeliveryVehicles.saved(id, sequence: write.sequence)
            case .task(let id, let task):
                saved.deliveries.publish(task: task, id: id)
                pendingTasks.saved(id, sequence: write.sequence)
            case .deletedTask(let id):
                saved.deliveries.publish(task: nil, id: id)
                pendingTasks.saved(id, sequence: write.sequence)
            }
        }
    }

    /// Makes a saved vehicle (or its deletion, `nil`) visible.
    private mutating func publish(vehicle: Vehicle?, id: String, sequence: UInt64) {
        saved.publish(vehicle: vehicle, id: id)
        pendingVehicles.saved(id, sequence: sequence)
    }

    /// Makes a saved trip (or its deletion, `nil`) visible.
    private mutating func publish(trip: Trip?, id: String, sequence: UInt64) {
        saved.publish(trip: trip, id: id)
        pendingTrips.saved(id, sequence: sequence)
    }

    /// Forgets every write not yet saved (they fail with the batch that failed, since later ones
    /// may build on it) and returns them, the batch's first.
    mutating func dropUnsaved(after failedBatch: [PendingWrite]) -> [PendingWrite] {
        defer { queue.removeAll() }
        pendingVehicles.removeAll()
        pendingTrips.removeAll()
        pendingDeliveryVehicles.removeAll()
        pendingTasks.removeAll()
        acceptedActiveTrips = saved.activeTrips
        return failedBatch + queue
    }

    // MARK: Helpers

    /// Queues `record` for the next batch.
    private mutating func write(_ record: ResourceChange) -> WriteAcknowledgement {
        write([record])
    }

    /// Queues `records` for the next batch, as one write: they are saved together or not at all.
    /// `emptiesVehiclesAndTrips` says they remove every vehicle and trip (``PendingWrite``).
    mutating func write(_ records: [ResourceChange], emptiesVehiclesAndTrips: Bool = false) -> WriteAcknowledgement {
        acceptedWriteCount += 1
        let sequence = acceptedWriteCount
        for record in records {
            switch record {
            case .vehicle(let id, let vehicle): pendingVehicles.record(id, vehicle, sequence: sequence)
            case .deletedVehicle(let id): pendingVehicles.record(id, nil, sequence: sequence)
            case .trip(let id, let trip):
                acceptedActiveTrips.record(tripID: id, old: latestTrip(id), new: trip)
                pendingTrips.record(id, trip, sequence: sequence)
            case .deletedTrip(let id):
                acceptedActiveTrips.record(tripID: id, old: latestTrip(id), new: nil)
                pendingTrips.record(id, nil, sequence: sequence)
            case .deliveryVehicle(let id, let vehicle): pendingDeliveryVehicles.record(id, vehicle, sequence: sequence)
            case .deletedDeliveryVehicle(let id): pendingDeliveryVehicles.record(id, nil, sequence: sequence)
            case .task(let id, let task): pendingTasks.record(id, task, sequence: sequence)
            case .deletedTask(let id): pendingTasks.record(id, nil, sequence: sequence)
            }
        }
        let acknowledgement = WriteAcknowledgement()
        if queue.isEmpty { queueOrigin = MultiThreadedEventLoopGroup.currentEventLoop }
        queue.append(
            PendingWrite(
                sequence: sequence, records: records, acknowledgement: acknowledgement,
                emptiesVehiclesAndTrips: emptiesVehiclesAndTrips))
        return acknowledgement
    }

    private func latestVehicle(_ id: String) -> Vehicle? {
        pendingVehicles.latest(id, saved: saved.vehicles)
    }

    private func latestTrip(_ id: String) -> Trip? {
        pendingTrips.latest(id, saved: saved.trips)
    }

    private func requireVehicle(_ vehicleID: String) throws {
        guard !vehicleID.isEmpty else { return }
        guard latestVehicle(vehicleID) != nil else {
            throw APIError.invalidArgument("vehicleId '\(vehicleID)' names no vehicle of provider '\(saved.provider)'")
        }
    }
}
