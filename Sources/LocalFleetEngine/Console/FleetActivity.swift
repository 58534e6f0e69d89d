import FleetAuthLocking
import Foundation
import SwiftProtobuf

/// What the console learns from every saved batch, apart from the state's own lock: which
/// resources each open page has yet to hear about (so that the live stream sends what
/// changed, not the whole fleet), and where each vehicle has been (for replay).
///
/// ``record(_:)`` is called once per saved batch, with a lock taken once: a batch of a
/// thousand location updates costs a thousand set insertions and ring slots.
final class FleetActivity: Sendable {
    /// How many positions each vehicle's trail keeps (``LocationTrail``).
    let trailCapacity: Int
    private let state: Locked<State>

    private struct State {
        /// Per open stream, the resources that changed since it last took them.
        var pending: [UInt64: Set<Key>] = [:]
        var nextSubscriber: UInt64 = 0
        var trails: [Key: LocationTrail] = [:]
    }

    /// A resource, by kind and id.
    struct Key: Hashable, Sendable {
        let kind: ResourceKind
        let id: String
    }

    /// The engine's clock, which the trails' times follow.
    private let clock: @Sendable () -> Date

    /// Activity keeping `trailCapacity` positions per vehicle (0: no trails), timed by `clock`.
    init(trailCapacity: Int = 720, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.trailCapacity = trailCapacity
        self.clock = clock
        self.state = Locked(State())
    }

    /// Takes note of a saved batch's records.
    func record(_ records: [ResourceChange]) {
        let now = clock()
        state.withLock { state in
            // The streams' ids, taken once: inserting while iterating the dictionary's own keys
            // would copy it, and a stream's whole set, on every insertion.
            let subscribers = Array(state.pending.keys)
            for record in records {
                let (kind, id) = record.resource
                let key = Key(kind: kind, id: id)
                for subscriber in subscribers { state.pending[subscriber]?.insert(key) }
                switch record {
                case .vehicle(_, let vehicle) where vehicle.hasLastLocation:
                    appendPoint(of: vehicle.lastLocation, now: now, to: key, in: &state)
                case .deliveryVehicle(_, let vehicle) where vehicle.hasLastLocation:
                    appendPoint(of: vehicle.lastLocation, now: now, to: key, in: &state)
                case .deletedVehicle, .deletedDeliveryVehicle:
                    state.trails[key] = nil
                default:
                    break
                }
            }
        }
    }

    private func appendPoint(of location: some ReportedLocation, now: Date, to key: Key, in state: inout State) {
        guard trailCapacity > 0, location.hasLocation else { return }
        let seconds = location.reportedSeconds ?? now.timeIntervalSince1970
        state.trails[key, default: LocationTrail(capacity: trailCapacity)]
            .append(
                TrailPoint(latitude: location.location.latitude, longitude: location.location.longitude, time: seconds))
    }

    /// Starts keeping, for a new stream, the resources that change; returns the stream's id.
    func subscribe() -> UInt64 {
        state.withLock { state in
            state.nextSubscriber += 1
            state.pending[state.nextSubscriber] = []
            return state.nextSubscriber
        }
    }

    /// Stops keeping changes for stream `subscriber`.
    func unsubscribe(_ subscriber: UInt64) {
        state.withLock { _ = $0.pending.removeValue(forKey: subscriber) }
    }

    /// The resources that changed since stream `subscriber` last asked, forgotten as they are
    /// returned.
    func takeChanges(for subscriber: UInt64) -> Set<Key> {
        state.withLock { state in
            guard let changes = state.pending[subscriber] else { return [] }
            state.pending[subscriber] = []
            return changes
        }
    }

    /// The positions vehicle `id` of `kind` reported from `from` to `to`, in time order.
    func trail(of kind: ResourceKind, id: String, from: Double, to: Double) -> [TrailPoint] {
        let trail = state.withLock { $0.trails[Key(kind: kind, id: id)] }
        return trail?.points(from: from, to: to) ?? []
    }
}

extension ReportedLocation {
    /// When the driver app took the position, else when the server received it, in seconds
    /// since 1970; `nil` when the location carries neither.
    var reportedSeconds: Double? {
        let time: Google_Protobuf_Timestamp
        if hasUpdateTime {
            time = updateTime
        } else if hasServerTime {
            time = serverTime
        } else {
            return nil
        }
        return Double(time.seconds) + Double(time.nanos) / 1e9
    }
}
