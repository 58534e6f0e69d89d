/// The body of `POST /v1/providers/{p}/vehicles:search` (`SearchVehiclesRequest`): find
/// `ONLINE` vehicles within a radius of a pickup point.
public struct SearchVehiclesRequest: Sendable, Hashable, Decodable {
    /// Where the rider is.
    public var pickupPoint: TerminalLocation?
    /// How far from the pickup point to look, 400 to 10,000 meters.
    public var pickupRadiusMeters: Int?
    /// How many matches to return at most, 1 to 50.
    public var count: Int?
    /// The least `maximumCapacity` a vehicle must have, at least 1.
    public var minimumCapacity: Int?
    /// The trip types wanted; a vehicle must support one of them.
    public var tripTypes: [TripType]?
    /// The vehicle types wanted; a vehicle must be one of them.
    public var vehicleTypes: [VehicleType]?
    /// The order of the matches.
    public var matchOrderBy: VehicleMatchOrder?

    enum CodingKeys: String, CodingKey {
        case pickupPoint, pickupRadiusMeters, count, minimumCapacity, tripTypes, vehicleTypes, matchOrderBy
    }

    /// Creates a request.
    public init(
        pickupPoint: LatLng, pickupRadiusMeters: Int, count: Int, minimumCapacity: Int = 1,
        tripTypes: [TripType] = [.exclusive], vehicleTypes: [VehicleType] = [VehicleType(category: .auto)],
        matchOrderBy: VehicleMatchOrder = .pickupPointStraightDistance
    ) {
        self.pickupPoint = TerminalLocation(point: pickupPoint)
        self.pickupRadiusMeters = pickupRadiusMeters
        self.count = count
        self.minimumCapacity = minimumCapacity
        self.tripTypes = tripTypes
        self.vehicleTypes = vehicleTypes
        self.matchOrderBy = matchOrderBy
    }

    /// Decodes a request, refusing unknown fields.
    /// A request with the given fields, not yet checked (``validate()`` checks them).
    init(
        unchecked pickupPoint: TerminalLocation?, pickupRadiusMeters: Int?, count: Int?, minimumCapacity: Int?,
        tripTypes: [TripType]?, vehicleTypes: [VehicleType]?, matchOrderBy: VehicleMatchOrder?
    ) {
        self.pickupPoint = pickupPoint
        self.pickupRadiusMeters = pickupRadiusMeters
        self.count = count
        self.minimumCapacity = minimumCapacity
        self.tripTypes = tripTypes
        self.vehicleTypes = vehicleTypes
        self.matchOrderBy = matchOrderBy
    }

    public init(from decoder: any Decoder) throws {
        let container = try StrictContainer(decoder, keyedBy: CodingKeys.self)
        pickupPoint = try container.decodeIfPresent(TerminalLocation.self, forKey: .pickupPoint)
        pickupRadiusMeters = try container.decodeIfPresent(Int.self, forKey: .pickupRadiusMeters)
        count = try container.decodeIfPresent(Int.self, forKey: .count)
        minimumCapacity = try container.decodeIfPresent(Int.self, forKey: .minimumCapacity)
        tripTypes = try container.decodeIfPresent([TripType].self, forKey: .tripTypes)
        vehicleTypes = try container.decodeIfPresent([VehicleType].self, forKey: .vehicleTypes)
        matchOrderBy = try container.decodeIfPresent(VehicleMatchOrder.self, forKey: .matchOrderBy)
    }
}

/// How search matches are ordered (`VehicleMatchOrder`).
public enum VehicleMatchOrder: String, ProtoEnum {
    /// Not specified.
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
public struct SearchVehiclesResponse: Sendable, Hashable, ProtoJSONEncodable {
    /// The vehicles found.
    public var matches: [VehicleMatch]

    enum CodingKeys: String, CodingKey {
        case matches
    }

    /// Creates a response.
    public init(matches: [VehicleMatch]) {
        self.matches = matches
    }

    /// Writes the matches (left out when there are none, as proto3 JSON does).
    public func writeFields(to object: inout ProtoJSONObjectWriter) {
        object.field(CodingKeys.matches, matches.isEmpty ? nil : matches)
    }
}

/// One vehicle a search found (`VehicleMatch`).
public struct VehicleMatch: Sendable, Hashable, ProtoJSONEncodable {
    /// The vehicle (for a consumer token: only its approximate position and public fields).
    public var vehicle: Vehicle
    /// Straight-line distance from the vehicle to the pickup point, in meters.
    public var vehiclePickupStraightLineDistanceMeters: Int
    /// Whether the vehicle would serve the trip alone or alongside its current trips.
    public var matchType: MatchType

    enum CodingKeys: String, CodingKey {
        case vehicle, vehiclePickupStraightLineDistanceMeters, matchType
    }

    /// Creates a match.
    public init(vehicle: Vehicle, vehiclePickupStraightLineDistanceMeters: Int, matchType: MatchType) {
        self.vehicle = vehicle
        self.vehiclePickupStraightLineDistanceMeters = vehiclePickupStraightLineDistanceMeters
        self.matchType = matchType
    }

    /// Writes the match's fields as proto3 JSON.
    public func writeFields(to object: inout ProtoJSONObjectWriter) {
        object.field(CodingKeys.vehicle, vehicle)
        object.field(CodingKeys.vehiclePickupStraightLineDistanceMeters, vehiclePickupStraightLineDistanceMeters)
        object.field(CodingKeys.matchType, matchType)
    }

    /// How a vehicle would take the trip (`VehicleMatch.VehicleMatchType`).
    public enum MatchType: String, ProtoEnum {
        /// Not specified.
        case unknown = "UNKNOWN"
        /// The vehicle has no trip and takes this one alone.
        case exclusive = "EXCLUSIVE"
        /// The vehicle shares this trip with trips it already has.
        case carpool = "CARPOOL"
    }
}
