/// Which unfinished trips each vehicle has, kept up to date as trips are saved: the source of
/// ``Vehicle/currentTrips``.
struct ActiveTripIndex {
    private var tripsByVehicle: [String: Set<String>] = [:]

    /// Takes note that trip `tripID` changed from `old` to `new` (`nil`: it was deleted).
    mutating func record(tripID: String, old: Trip?, new: Trip?) {
        if let old, old.isActive {
            let vehicle = old.vehicleID
            tripsByVehicle[vehicle]?.remove(tripID)
            if tripsByVehicle[vehicle]?.isEmpty == true { tripsByVehicle[vehicle] = nil }
        }
        if let new, !new.vehicleID.isEmpty, new.isActive {
            tripsByVehicle[new.vehicleID, default: []].insert(tripID)
        }
    }

    /// The unfinished trips of `vehicleID`, sorted.
    func trips(of vehicleID: String) -> [String] {
        tripsByVehicle[vehicleID].map { $0.sorted() } ?? []
    }
}
