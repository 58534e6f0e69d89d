/// Whether a vehicle takes trips (`VehicleState`). Only `ONLINE` vehicles are found by search.
package enum VehicleState: String, ProtoEnum {
    /// Not specified.
    case unknown = "UNKNOWN_VEHICLE_STATE"
    /// Not taking trips.
    case offline = "OFFLINE"
    /// Taking trips.
    case online = "ONLINE"
}

/// Whether a trip may share the vehicle with other trips (`TripType`).
package enum TripType: String, ProtoEnum {
    /// Not specified.
    case unknown = "UNKNOWN_TRIP_TYPE"
    /// Shared with other trips.
    case shared = "SHARED"
    /// The vehicle serves this trip alone.
    case exclusive = "EXCLUSIVE"
}

/// The kind of vehicle (`Vehicle.VehicleType`).
package struct VehicleType: Sendable, Hashable {
    /// The vehicle category (`Vehicle.VehicleType.Category`).
    package enum Category: String, ProtoEnum {
        /// Not specified.
        case unknown = "UNKNOWN"
        /// A car.
        case auto = "AUTO"
        /// A taxi.
        case taxi = "TAXI"
        /// A truck.
        case truck = "TRUCK"
        /// A motorcycle, moped or other two-wheeler.
        case twoWheeler = "TWO_WHEELER"
        /// A bicycle.
        case bicycle = "BICYCLE"
        /// A person on foot.
        case pedestrian = "PEDESTRIAN"
    }

    /// The category.
    package var category: Category

    /// Creates a vehicle type.
    package init(category: Category) {
        self.category = category
    }
}
