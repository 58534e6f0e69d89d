import FleetAuthLocking
import FleetAuthServerHTTP
import FleetAuthServerStorage
import Foundation
import Logging
import NIOCore
import NIOPosix

/// The live vehicles and trips of one provider, and the single writer that saves them.
///
/// Reads see only what is durable. A write is checked against everything accepted so far
/// (saved or not), joins the queue, and its caller waits until the batch holding it is saved
/// (group commit): while one batch is being saved, the next fills up, so a busy server
/// commits thousands of updates at a time and an idle one commits each at once. When a save
/// fails, every write not yet saved fails with it and nothing of them is ever shown.
///
/// Every call returns at once: reads and the acceptance of a write take one lock, so that a
/// request can be checked and its write accepted on the event loop that read it, and a write's
/// caller waits for the save through the ``Accepted`` it is given.
///
/// Each batch is saved where its first write was accepted: on an event loop, once the loop has
/// handled what it read (so that the batch holds all of it), on the loop's own thread; elsewhere
/// in a task. Either way the store saves on that thread when it can without waiting (SQLite with
/// no other writer: a WAL commit, which syncs nothing but for the checkpoint SQLite makes every
/// thousand pages), and through its waiting path otherwise. So a location update read on an
/// event loop is checked, saved and answered there, without a hop to another thread and back.
///
/// The state is loaded once at start: one local Fleet Engine process owns its database.
final class EngineState: Sendable {
    /// The most writes saved in one transaction.
    static let maximumBatch = 4096

    private let store: any EngineStore
    private let provider: String
    private let logger: Logger
    /// Told of every saved batch, for the console (`nil`: the console is off).
    private let activity: FleetActivity?
    /// Everything accepted and saved, under the one lock (read by the delivery methods of
    /// `EngineState+Deliveries.swift` too).
    let live: Locked<ProviderState>

    /// Loads the state of `provider` from `store`; `activity` hears of every saved batch.
    init(store: any EngineStore, provider: String, logger: Logger, activity: FleetActivity? = nil) async throws {
        let snapshot = try await store.load(provider: provider)
        self.store = store
        self.provider = provider
        self.logger = logger
        self.activity = activity
        self.live = Locked(ProviderState(provider: provider, snapshot: snapshot))
    }

    // MARK: Reads (durable state only)

    /// The vehicle, with its name and current trips, or `nil`.
    func vehicle(_ id: String) -> Vehicle? {
        live.withLock { $0.saved.vehicle(id) }
    }

    /// The trip, or `nil`.
    func trip(_ id: String) -> Trip? {
        live.withLock { $0.saved.trip(id) }
    }

    /// The page of vehicles a validated ListVehicles `query` asks for at `now`: read under the
    /// lock, from the indexes, at the cost of the page. When the query filters by more than
    /// category and state its total is counted vehicle by vehicle, on a copy taken out of the
    /// lock, so that no write waits for the count.
    func listVehicles(_ query: ListVehiclesRequest, now: Date) throws(InvalidArgument) -> ListVehiclesResponse {
        var response = try live.withLock { live in
            Result { () throws(InvalidArgument) in try live.saved.listVehicles(query, now: now) }
        }.get()
        if !VehicleListing.filtersOnlyByKind(query) {
            response.totalSize = Int64(live.withLock { $0.saved }.countVehicles(query, now: now))
        }
        return response
    }

    /// The trips that `isIncluded` accepts, sorted by id.
    func trips(where isIncluded: @Sendable (Trip) -> Bool) -> [(id: String, trip: Trip)] {
        // Only the trips are copied out of the lock, not the vehicles and their indexes.
        let trips = live.withLock { $0.saved.trips }
        return trips.keys.sorted().compactMap { id in trips[id].flatMap { isIncluded($0) ? (id, $0) : nil } }
    }

    /// The trips assigned to `vehicleID` that `isIncluded` accepts, sorted by id; read under
    /// the lock, at the cost of that vehicle's trips.
    func trips(ofVehicle vehicleID: String, where isIncluded: (Trip) -> Bool) -> [(id: String, trip: Trip)] {
        live.withLock { $0.saved.trips(ofVehicle: vehicleID, where: isIncluded) }
    }

    /// The vehicles that match `request` at `now`, nearest first.
    /// Each match says that it is ordered by straight-line distance, whatever order was asked
    /// for: the engine has no road network.
    /// Read under the lock, from the spatial index: a copy taken out of the lock would cost the
    /// next write a copy of the whole fleet.
    func search(_ request: SearchVehiclesRequest, now: Date) -> [VehicleMatch] {
        live.withLock { $0.saved.search(request, now: now) }
    }

    /// Everything saved, as one value (copied out of the lock: the caller may take its time).
    var savedState: SavedState {
        live.withLock { $0.saved }
    }

    // MARK: Writes (acknowledged once durable)

    /// Saves every resource of `snapshot` in one write, into an engine that has none; 400
    /// `FAILED_PRECONDITION` when it has any, saved or accepted.
    func importSnapshot(_ snapshot: ProviderSnapshot) throws -> Accepted<Void> {
        try accept { try $0.acceptImport(snapshot) }
    }

    /// Removes every resource of `kinds` at once (`/emulator/v1/reset`): a call in flight sees
    /// the state before or after, never half of it.
    func reset(_ kinds: Set<ResourceKind>) throws -> Accepted<Void> {
        try accept { $0.acceptReset(kinds) }
    }

    /// Creates a vehicle; 409 when the id is taken.
    func createVehicle(_ id: String, _ vehicle: Vehicle) throws -> Accepted<Vehicle> {
        try accept { try $0.acceptVehicleCreation(id, vehicle) }
    }

    /// Sets `fields` of a vehicle from `update`; 404 when there is no such vehicle. The result
    /// has the current trips of every write accepted before it.
    func updateVehicle(_ id: String, with update: Vehicle, fields: Set<VehicleField>) throws -> Accepted<Vehicle> {
        try accept { try $0.acceptVehicleUpdate(id, with: update, fields: fields) }
    }

    /// Merges `attributes` into the vehicle's by key (replacing those with the same key and
    /// adding the others); 404 when there is no such vehicle, 400 when it would then carry more
    /// than ``Vehicle/maximumAttributes``. The result is all of the vehicle's attributes.
    func mergeAttributes(_ id: String, _ attributes: [VehicleAttribute]) throws -> Accepted<[VehicleAttribute]> {
        try accept { try $0.acceptAttributeMerge(id, attributes) }
    }

    /// Deletes a vehicle; 404 when there is none, 400 `FAILED_PRECONDITION` while it has
    /// unfinished trips.
    func deleteVehicle(_ id: String) throws -> Accepted<Void> {
        try accept { try $0.acceptVehicleDeletion(id) }
    }

    /// Deletes a trip; 404 when there is none, 400 `FAILED_PRECONDITION` while it is unfinished
    /// and assigned to a vehicle.
    func deleteTrip(_ id: String) throws -> Accepted<Void> {
        try accept { try $0.acceptTripDeletion(id) }
    }

    /// Creates a trip in status `NEW` (whatever status the request gave, as Fleet Engine does);
    /// 409 when the id is taken, 400 when its vehicle does not exist.
    func createTrip(_ id: String, _ trip: Trip) throws -> Accepted<Trip> {
        try accept { try $0.acceptTripCreation(id, trip) }
    }

    /// Sets `fields` of a trip from `update`. A driver's `decision` is checked against the
    /// trip as it is now (403 for a trip not assigned to its vehicle, existing or not); then
    /// 404 when there is no such trip, and 400 when the update would change a finished trip or
    /// assign a vehicle that does not exist.
    func updateTrip(_ id: String, with update: Trip, fields: Set<TripField>, decision: AccessDecision) throws
        -> Accepted<Trip>
    {
        try accept { try $0.acceptTripUpdate(id, with: update, fields: fields, decision: decision) }
    }

    /// How many writes were accepted since start: saved, failed or waiting for their save.
    var acceptedWriteCount: UInt64 {
        live.withLock { $0.acceptedWriteCount }
    }

    /// Waits until every accepted write is saved or failed.
    func drain() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let idle = live.withLock { fleet in
                if fleet.isCommitting { fleet.drainWaiters.append(waiter) }
                return !fleet.isCommitting
            }
            if idle { waiter.resume() }
        }
    }

    // MARK: Group commit

    /// Runs `acceptance` under the lock, and starts a commit when none is under way.
    func accept<Value>(_ acceptance: (inout ProviderState) throws -> Accepted<Value>) throws -> Accepted<Value> {
        let (accepted, startsCommit) = try live.withLock { fleet in
            let accepted = try acceptance(&fleet)
            defer { fleet.isCommitting = true }
            return (accepted, !fleet.isCommitting)
        }
        if startsCommit { commitNext() }
        return accepted
    }

    /// Has the next batch taken where its first write was accepted (on that event loop once the
    /// loop has handled what it read, so that the batch holds all of it; at once for a write a
    /// task accepted), and saved in a task. Ends the commit when nothing is queued, releasing
    /// the callers of ``drain()``.
    private func commitNext() {
        let (queued, origin, waiters) = live.withLock {
            fleet -> (Bool, (any EventLoop)?, [CheckedContinuation<Void, Never>]) in
            guard fleet.hasQueuedWrites else {
                fleet.isCommitting = false
                defer { fleet.drainWaiters = [] }
                return (false, nil, fleet.drainWaiters)
            }
            return (true, fleet.queueOrigin, [])
        }
        for waiter in waiters { waiter.resume() }
        guard queued else { return }
        if let origin {
            origin.execute { self.takeBatchAndSave() }
        } else {
            takeBatchAndSave()
        }
    }

    /// Takes the next batch here and saves it in a task (high priority: a commit releases
    /// every request waiting on it, so it should not queue behind them).
    private func takeBatchAndSave() {
        guard let batch = live.withLock({ $0.nextBatch(atMost: Self.maximumBatch) }) else { return commitNext() }
        Task(priority: .high) {
            await self.save(batch)
            self.commitNext()
        }
    }

    /// Saves `batch`; fails it, and every write accepted after it, when the store cannot.
    private func save(_ batch: [PendingWrite]) async {
        do {
            try await store.save(batch.flatMap(\.records), provider: provider)
            saved(batch)
        } catch {
            fail(live.withLock { $0.dropUnsaved(after: batch) }, because: error)
        }
    }

    /// Makes a saved batch visible, then tells its writers.
    private func saved(_ batch: [PendingWrite]) {
        live.withLock { fleet in
            for write in batch { fleet.publish(write) }
        }
        activity?.record(batch.flatMap(\.records))
        for write in batch { write.acknowledgement.complete(.success(())) }
    }

    /// Fails `writes` (every write not yet saved; later ones may build on the failed ones).
    private func fail(_ writes: [PendingWrite], because error: any Error) {
        logger.error("saving vehicles and trips failed", metadata: ["writes": "\(writes.count)", "error": "\(error)"])
        let unavailable = error as? DatabaseUnavailable
        let reason = unavailable.map { "\($0)" } ?? "the change could not be saved and was not made"
        let refusal = APIError(
            .unavailable, reason + "; try again",
            retryAfter: unavailable?.retryAfter ?? DatabaseUnavailable.momentaryRetryAfter)
        for write in writes { write.acknowledgement.complete(.failure(refusal)) }
    }
}
