import Foundation

/// Which vehicles a ListVehicles query finds, and its pages (``Pages``).
enum VehicleListing {
    /// Whether `vehicle` (as the API shows it, with its current trips) passes the filters of a
    /// validated `query` at time `now`.
    static func matches(_ vehicle: Vehicle, _ query: ListVehiclesQuery, now: Date) -> Bool {
        guard let category = vehicle.vehicleType?.category, query.vehicleTypeCategories.contains(category) else { return false }
        if let minimum = query.minimumCapacity, (vehicle.maximumCapacity ?? 0) < minimum { return false }
        if !query.tripTypes.isEmpty, Set(vehicle.supportedTripTypes ?? []).isDisjoint(with: query.tripTypes) { return false }
        if let state = query.vehicleState, vehicle.vehicleState != state { return false }
        if query.onTripOnly, (vehicle.currentTrips ?? []).isEmpty { return false }
        if let staleness = query.maximumStaleness {
            guard let received = vehicle.lastLocation?.serverTime?.date else { return false }
            let (seconds, attoseconds) = staleness.components
            if now.timeIntervalSince(received) > Double(seconds) + Double(attoseconds) / 1e18 { return false }
        }
        let attributes = vehicle.attributes ?? []
        let met = { (text: Substring) in AttributeRequirement(text)?.isMet(by: attributes) ?? false }
        guard query.requiredAttributes.allSatisfy({ met(Substring($0)) }) else { return false }
        guard query.requiredOneOfAttributes.allSatisfy({ $0.split(separator: "|").contains(where: met) }) else { return false }
        if !query.requiredOneOfAttributeSets.isEmpty {
            guard query.requiredOneOfAttributeSets.contains(where: { $0.split(separator: "|").allSatisfy(met) }) else { return false }
        }
        return true
    }

    /// The page of `found` (vehicles with their ids, sorted by id) that `query` asks for.
    static func page(of found: [(id: String, vehicle: Vehicle)], _ query: ListVehiclesQuery) throws(InvalidArgument) -> ListVehiclesResponse {
        let page = try Pages.page(of: found.map { ($0.id, $0.vehicle) }, size: query.pageSize, token: query.pageToken)
        return ListVehiclesResponse(vehicles: page.items, nextPageToken: page.nextPageToken, totalSize: found.count)
    }
}
