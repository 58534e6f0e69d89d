import Foundation
import SwiftProtobuf

/// How many resources of each kind an engine holds.
struct ResourceCounts: Sendable, Encodable, Equatable {
    let vehicles: Int
    let trips: Int
    let deliveryVehicles: Int
    let tasks: Int
}

extension EngineState {
    /// How many saved resources there are of each kind.
    var counts: ResourceCounts {
        live.withLock { live in
            let saved = live.saved
            return ResourceCounts(
                vehicles: saved.vehicles.count, trips: saved.trips.count,
                deliveryVehicles: saved.deliveries.vehicles.count, tasks: saved.deliveries.tasks.count)
        }
    }

    /// The marks of the resources `keys` names; a resource that is gone gets a removal mark.
    /// The resources are looked up under the lock, the marks made out of it.
    func marks(of keys: some Sequence<FleetActivity.Key>) -> [MapMark] {
        let records: [(FleetActivity.Key, ResourceChange?)] = live.withLock { live in
            keys.map { key in (key, live.saved.record(of: key.kind, id: key.id)) }
        }
        return records.map { key, record in record.map(MapMark.init) ?? .removed(key.kind, id: key.id) }
    }

    /// Up to `limit` marks of resources of `kind`, in order of id after id `after`; with no
    /// kind, the first `limit` of every kind in turn (`after` is then ignored).
    func marks(kind: ResourceKind?, after: String?, limit: Int) -> [MapMark] {
        live.withLock { live in
            var marks: [MapMark] = []
            for current in kind.map({ [$0] }) ?? ResourceKind.allCases {
                for id in live.saved.ids(of: current) where marks.count < limit {
                    if kind != nil, let after, id <= after { continue }
                    if let record = live.saved.record(of: current, id: id) { marks.append(MapMark(record)) }
                }
            }
            return marks
        }
    }

    /// Resource `id` of `kind` in Fleet Engine's JSON, as a Get would answer it; `nil` when
    /// there is none.
    func json(of kind: ResourceKind, id: String) -> String? {
        switch kind {
        case .vehicle: vehicle(id).flatMap { try? $0.jsonString() }
        case .trip: trip(id).flatMap { try? $0.jsonString() }
        case .deliveryVehicle: deliveryVehicle(id).flatMap { try? $0.jsonString() }
        case .task: task(id).flatMap { try? $0.jsonString() }
        }
    }
}

extension SavedState {
    /// The saved record of resource `id` of `kind`, or `nil`.
    func record(of kind: ResourceKind, id: String) -> ResourceChange? {
        switch kind {
        case .vehicle: vehicles[id].map { .vehicle(id: id, $0) }
        case .trip: trips[id].map { .trip(id: id, $0) }
        case .deliveryVehicle: deliveries.vehicles[id].map { .deliveryVehicle(id: id, $0) }
        case .task: deliveries.tasks[id].map { .task(id: id, $0) }
        }
    }

    /// Every id of `kind`, in order.
    func ids(of kind: ResourceKind) -> [String] {
        switch kind {
        case .vehicle: vehicles.keys.sorted()
        case .trip: trips.keys.sorted()
        case .deliveryVehicle: deliveries.vehicles.keys.sorted()
        case .task: deliveries.tasks.keys.sorted()
        }
    }

    /// Everything saved, as a snapshot (for export).
    var snapshot: ProviderSnapshot {
        ProviderSnapshot(
            vehicles: vehicles, trips: trips, deliveryVehicles: deliveries.vehicles, tasks: deliveries.tasks)
    }
}
