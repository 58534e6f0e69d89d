import Foundation

/// Which vehicles a ListVehicles query finds, and its pages, read from ``VehicleIndexes``.
enum VehicleListing {
    /// Whether `vehicle` (as the API shows it, with its current trips) passes the filters of a
    /// validated `query` at time `now`.
    static func matches(_ vehicle: Vehicle, _ query: ListVehiclesRequest, now: Date) -> Bool {
        guard vehicle.hasVehicleType, query.vehicleTypeCategories.contains(vehicle.vehicleType.category) else {
            return false
        }
        if query.hasMinimumCapacity, vehicle.maximumCapacity < query.minimumCapacity.value { return false }
        if !query.tripTypes.isEmpty, Set(vehicle.supportedTripTypes).isDisjoint(with: query.tripTypes) { return false }
        if !query.vehicleState.isUnset, vehicle.vehicleState != query.vehicleState { return false }
        if query.onTripOnly, vehicle.currentTrips.isEmpty { return false }
        if query.hasMaximumStaleness {
            guard vehicle.lastLocation.hasServerTime else { return false }
            let (seconds, attoseconds) = query.maximumStaleness.duration.components
            if now.timeIntervalSince(vehicle.lastLocation.serverTime.date) > Double(seconds) + Double(attoseconds)
                / 1e18
            {
                return false
            }
        }
        let attributes = vehicle.attributes
        let met = { (text: Substring) in AttributeRequirement(text)?.isMet(by: attributes) ?? false }
        guard query.requiredAttributes.allSatisfy({ met(Substring($0)) }) else { return false }
        guard query.requiredOneOfAttributes.allSatisfy({ $0.split(separator: "|").contains(where: met) }) else {
            return false
        }
        if !query.requiredOneOfAttributeSets.isEmpty {
            guard query.requiredOneOfAttributeSets.contains(where: { $0.split(separator: "|").allSatisfy(met) }) else {
                return false
            }
        }
        return true
    }

    /// The page a validated `query` asks for at `now`: the vehicles of its categories (and
    /// state) read from `indexes` in id order from where its page token ended, each as `shown`
    /// gives it, until the page is full and one more match shows there is a next page. Its
    /// `totalSize` is the indexes' count when the query ``filtersOnlyByKind(_:)``; otherwise it
    /// is left for ``count(_:now:indexes:shown:)``.
    static func page(
        _ query: ListVehiclesRequest, now: Date, indexes: VehicleIndexes, shown: (String) -> Vehicle?
    ) throws(InvalidArgument) -> ListVehiclesResponse {
        let size = query.pageSize == 0 ? Pages.defaultSize : Int(query.pageSize)
        var page: [Vehicle] = []
        var hasMore = false
        var lastID: String?
        for id in indexes.ids(
            of: query.vehicleTypeCategories, in: query.vehicleState, after: try Pages.lastID(in: query.pageToken))
        {
            guard let vehicle = shown(id), matches(vehicle, query, now: now) else { continue }
            guard page.count < size else {
                hasMore = true
                break
            }
            page.append(vehicle)
            lastID = id
        }
        return .with { response in
            response.vehicles = page
            response.nextPageToken = hasMore ? lastID.map(Pages.token(after:)) ?? "" : ""
            if filtersOnlyByKind(query) {
                response.totalSize = Int64(indexes.count(of: query.vehicleTypeCategories, in: query.vehicleState))
            }
        }
    }

    /// How many vehicles pass a validated `query` at `now`: each vehicle of its categories and
    /// state, as `shown` gives it, tested in turn.
    static func count(_ query: ListVehiclesRequest, now: Date, indexes: VehicleIndexes, shown: (String) -> Vehicle?)
        -> Int
    {
        indexes.ids(of: query.vehicleTypeCategories, in: query.vehicleState, after: nil)
            .reduce(0) { count, id in count + (shown(id).map { matches($0, query, now: now) } == true ? 1 : 0) }
    }

    /// Whether `query` filters by nothing but category and state, which the indexes count.
    static func filtersOnlyByKind(_ query: ListVehiclesRequest) -> Bool {
        !query.hasMinimumCapacity && query.tripTypes.isEmpty && !query.onTripOnly && !query.hasMaximumStaleness
            && query.requiredAttributes.isEmpty && query.requiredOneOfAttributes.isEmpty
            && query.requiredOneOfAttributeSets.isEmpty
    }
}
