/// What makes a read of the saved vehicles cost what it returns rather than the size of the
/// fleet: where each vehicle is (``SpatialGrid``, for searches), and the ids of each vehicle
/// type category and state in order (``SortedIDs``, for listings' pages and counts). Kept in
/// step with every saved change by ``record(id:old:new:)``.
struct VehicleIndexes: Sendable {
    /// A listing's partition of the fleet: one category in one state.
    private struct Kind: Hashable {
        let category: Int
        let state: Int
    }

    /// Where the vehicles with a last location are.
    private(set) var positions = SpatialGrid()
    /// The vehicles with a type, by category and state, in id order.
    private var kinds: [Kind: SortedIDs] = [:]

    /// Takes note that vehicle `id` changed from `old` to `new` (`nil`: none, or deleted).
    mutating func record(id: String, old: Vehicle?, new: Vehicle?) {
        positions.place(id, at: new.flatMap(Self.position(of:)))
        let oldKind = old.flatMap(Self.kind(of:)), newKind = new.flatMap(Self.kind(of:))
        guard oldKind != newKind else { return }
        if let oldKind {
            kinds[oldKind]?.remove(id)
            if kinds[oldKind]?.count == 0 { kinds[oldKind] = nil }
        }
        if let newKind { kinds[newKind, default: SortedIDs()].insert(id) }
    }

    /// The ids of the vehicles of `categories` in `state` (in any state when it is unset),
    /// ascending from the first above `id` (from the first when `nil`).
    func ids(of categories: [Vehicle.VehicleType.Category], in state: VehicleState, after id: String?) -> MergedIDs {
        MergedIDs(kinds.filter { Self.selects($0.key, categories, state) }.values.map { $0.ids(after: id) })
    }

    /// How many vehicles of `categories` are in `state` (in any state when it is unset).
    func count(of categories: [Vehicle.VehicleType.Category], in state: VehicleState) -> Int {
        kinds.reduce(0) { total, entry in total + (Self.selects(entry.key, categories, state) ? entry.value.count : 0) }
    }

    /// The ids of several ``SortedIDs`` read on together in ascending order.
    struct MergedIDs: Sequence, IteratorProtocol {
        private var sources: [SortedIDs.Iterator]
        private var heads: [String?]

        fileprivate init(_ sources: [SortedIDs.Iterator]) {
            self.sources = sources
            heads = []
            for index in self.sources.indices { heads.append(self.sources[index].next()) }
        }

        /// The least id not yet read, or `nil` when all are read.
        mutating func next() -> String? {
            var least: Int?
            for (index, head) in heads.enumerated() {
                guard let head else { continue }
                if let current = least, let leastHead = heads[current], leastHead <= head { continue }
                least = index
            }
            guard let least else { return nil }
            defer { heads[least] = sources[least].next() }
            return heads[least]
        }
    }

    private static func selects(_ kind: Kind, _ categories: [Vehicle.VehicleType.Category], _ state: VehicleState)
        -> Bool
    {
        (state.isUnset || kind.state == state.rawValue) && categories.contains { $0.rawValue == kind.category }
    }

    private static func position(of vehicle: Vehicle) -> LatLng? {
        vehicle.hasLastLocation && vehicle.lastLocation.hasLocation ? vehicle.lastLocation.location : nil
    }

    private static func kind(of vehicle: Vehicle) -> Kind? {
        vehicle.hasVehicleType
            ? Kind(category: vehicle.vehicleType.category.rawValue, state: vehicle.vehicleState.rawValue) : nil
    }
}
