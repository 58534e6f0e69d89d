/// The body of `POST /v1/providers/{p}/vehicles:search` (Google's `SearchVehiclesRequest` less
/// `parent` and `header`): find `ONLINE` vehicles within a radius of a pickup point.
package struct SearchVehiclesRequest: Sendable, Hashable {
    /// Where the rider is; required.
    package var pickupPoint: TerminalLocation?
    /// Where the rider goes; required when ordering by `DROPOFF_POINT_ETA`.
    package var dropoffPoint: TerminalLocation?
    /// How far from the pickup point to look, 400 to 10,000 meters.
    package var pickupRadiusMeters: Int?
    /// How many matches to return at most, 1 to 50.
    package var count: Int?
    /// The least `maximumCapacity` a vehicle must have, at least 1.
    package var minimumCapacity: Int?
    /// The trip types wanted; a vehicle must support one of them.
    package var tripTypes: [TripType]?
    /// Only vehicles whose location the engine received at most this long ago; 5 minutes when
    /// not given, as at Google.
    package var maximumStaleness: Duration?
    /// The vehicle types wanted; a vehicle must be one of them.
    package var vehicleTypes: [VehicleType]?
    /// Attributes a vehicle must all have.
    package var requiredAttributes: [VehicleAttribute]?
    /// Lists of attributes, of each of which a vehicle must have at least one.
    package var requiredOneOfAttributes: [VehicleAttributeList]?
    /// Lists of attributes, all of one of which a vehicle must have.
    package var requiredOneOfAttributeSets: [VehicleAttributeList]?
    /// The order of the matches asked for (they are ordered by straight-line distance).
    package var orderBy: VehicleMatchOrder?
    /// With ``currentTripsPresent`` unset: whether a vehicle with one trip, en route to its
    /// dropoff, may be offered back to back.
    package var includeBackToBack: Bool?
    /// The trip the search is for (accepted as context).
    package var tripId: String?
    /// Whether vehicles with current trips may be offered.
    package var currentTripsPresent: CurrentTripsPresent?
    /// Google's filter expression, not supported yet (refused).
    package var filter: String?

    /// Which vehicles with current trips a search may offer (Google's `CurrentTripsPresent`).
    package enum CurrentTripsPresent: String, ProtoEnum {
        /// Decided by ``SearchVehiclesRequest/includeBackToBack``.
        case unspecified = "CURRENT_TRIPS_PRESENT_UNSPECIFIED"
        /// Only vehicles without trips.
        case none = "NONE"
        /// Vehicles with up to five current trips too.
        case any = "ANY"
    }

    /// An empty request (``validate()`` refuses it until its required fields are set).
    package init() {}

    /// A request for vehicles near `pickupPoint`.
    package init(
        pickupPoint: LatLng, pickupRadiusMeters: Int, count: Int, minimumCapacity: Int = 1,
        tripTypes: [TripType] = [.exclusive], vehicleTypes: [VehicleType] = [VehicleType(category: .auto)],
        orderBy: VehicleMatchOrder = .pickupPointStraightDistance
    ) {
        self.pickupPoint = TerminalLocation(point: pickupPoint)
        self.pickupRadiusMeters = pickupRadiusMeters
        self.count = count
        self.minimumCapacity = minimumCapacity
        self.tripTypes = tripTypes
        self.vehicleTypes = vehicleTypes
        self.orderBy = orderBy
    }
}

/// How search matches may be ordered (`SearchVehiclesRequest.VehicleMatchOrder`). The local
/// Fleet Engine has no road network: it orders every search by straight-line distance and
/// says so in each match's `orderedBy`.
package enum VehicleMatchOrder: String, ProtoEnum {
    /// Not specified; refused.
    case unknown = "UNKNOWN_VEHICLE_MATCH_ORDER"
    /// By driving time to the pickup point.
    case pickupPointETA = "PICKUP_POINT_ETA"
    /// By driving distance to the pickup point.
    case pickupPointDistance = "PICKUP_POINT_DISTANCE"
    /// By driving time to the dropoff point.
    case dropoffPointETA = "DROPOFF_POINT_ETA"
    /// By straight-line distance to the pickup point.
    case pickupPointStraightDistance = "PICKUP_POINT_STRAIGHT_DISTANCE"
    /// By a configured cost.
    case cost = "COST"
}

/// The answer to a search (`SearchVehiclesResponse`), nearest first.
package struct SearchVehiclesResponse: Sendable, Hashable {
    /// The vehicles found.
    package var matches: [VehicleMatch]

    /// Creates a response.
    package init(matches: [VehicleMatch]) {
        self.matches = matches
    }
}

/// One vehicle a search found (`VehicleMatch`).
package struct VehicleMatch: Sendable, Hashable {
    /// The vehicle (for a consumer token: only its approximate position and public fields).
    package var vehicle: Vehicle
    /// Straight-line distance from the vehicle to the pickup point, in meters.
    package var vehiclePickupStraightLineDistanceMeters: Int
    /// The requested trip type the match is for.
    package var tripType: TripType
    /// How the vehicle would take the trip.
    package var vehicleMatchType: MatchType
    /// The order the search asked for.
    package var requestedOrderedBy: VehicleMatchOrder
    /// The order used: always by straight-line distance here.
    package var orderedBy: VehicleMatchOrder

    /// Creates a match ordered by straight-line distance.
    package init(
        vehicle: Vehicle, vehiclePickupStraightLineDistanceMeters: Int, tripType: TripType, vehicleMatchType: MatchType,
        requestedOrderedBy: VehicleMatchOrder
    ) {
        self.vehicle = vehicle
        self.vehiclePickupStraightLineDistanceMeters = vehiclePickupStraightLineDistanceMeters
        self.tripType = tripType
        self.vehicleMatchType = vehicleMatchType
        self.requestedOrderedBy = requestedOrderedBy
        self.orderedBy = .pickupPointStraightDistance
    }

    /// How a vehicle would take the trip (`VehicleMatch.VehicleMatchType`).
    package enum MatchType: String, ProtoEnum {
        /// Not specified.
        case unknown = "UNKNOWN"
        /// The vehicle has no trip and goes to the pickup point at once.
        case exclusive = "EXCLUSIVE"
        /// The vehicle takes the trip after the one it is finishing.
        case backToBack = "BACK_TO_BACK"
        /// The vehicle shares this trip with trips it already has.
        case carpool = "CARPOOL"
    }
}
