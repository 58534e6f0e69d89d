import Foundation

/// Which vehicles a ListVehicles query finds, and its pages (``Pages``).
enum VehicleListing {
    /// Whether `vehicle` (as the API shows it, with its current trips) passes the filters of a
    /// validated `query` at time `now`.
    static func matches(_ vehicle: Vehicle, _ query: ListVehiclesRequest, now: Date) -> Bool {
        guard vehicle.hasVehicleType, query.vehicleTypeCategories.contains(vehicle.vehicleType.category) else { return false }
        if query.hasMinimumCapacity, vehicle.maximumCapacity < query.minimumCapacity.value { return false }
        if !query.tripTypes.isEmpty, Set(vehicle.supportedTripTypes).isDisjoint(with: query.tripTypes) { return false }
        if !query.vehicleState.isUnset, vehicle.vehicleState != query.vehicleState { return false }
        if query.onTripOnly, vehicle.currentTrips.isEmpty { return false }
        if query.hasMaximumStaleness {
            guard vehicle.lastLocation.hasServerTime else { return false }
            let (seconds, attoseconds) = query.maximumStaleness.duration.components
            if now.timeIntervalSince(vehicle.lastLocation.serverTime.date) > Double(seconds) + Double(attoseconds) / 1e18 { return false }
        }
        let attributes = vehicle.attributes
        let met = { (text: Substring) in AttributeRequirement(text)?.isMet(by: attributes) ?? false }
        guard query.requiredAttributes.allSatisfy({ met(Substring($0)) }) else { return false }
        guard query.requiredOneOfAttributes.allSatisfy({ $0.split(separator: "|").contains(where: met) }) else { return false }
        if !query.requiredOneOfAttributeSets.isEmpty {
            guard query.requiredOneOfAttributeSets.contains(where: { $0.split(separator: "|").allSatisfy(met) }) else { return false }
        }
        return true
    }

    /// The page of `found` (vehicles with their ids, sorted by id) that `query` asks for.
    static func page(of found: [(id: String, vehicle: Vehicle)], _ query: ListVehiclesRequest) throws(InvalidArgument) -> ListVehiclesResponse {
        let page = try Pages.page(of: found.map { ($0.id, $0.vehicle) }, size: Int(query.pageSize), token: query.pageToken)
        return .with { response in
            response.vehicles = page.items
            response.nextPageToken = page.nextPageToken
            response.totalSize = Int64(found.count)
        }
    }
}
