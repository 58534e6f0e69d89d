import FleetEngineProtos
import ServerHTTP

extension ListVehiclesQuery {
    /// The query of a ListVehicles request; `filter` and `viewport` are refused by name
    /// (400) until the engine applies them, rather than ignored.
    init(proto: Maps_Fleetengine_V1_ListVehiclesRequest) throws(APIError) {
        try proto.requireKnownFields("the request")
        if !proto.filter.isEmpty { throw .invalidArgument("filter is not supported by the local Fleet Engine's vehicle listing yet") }
        if proto.hasViewport { throw .invalidArgument("viewport is not supported by the local Fleet Engine's vehicle listing yet") }
        self.init()
        pageSize = Int(proto.pageSize)
        pageToken = proto.pageToken
        minimumCapacity = proto.hasMinimumCapacity ? Int(proto.minimumCapacity.value) : nil
        tripTypes = try proto.tripTypes.map { value throws(APIError) in try TripType(proto: value, field: "tripTypes") }
        maximumStaleness = proto.hasMaximumStaleness
            ? .seconds(proto.maximumStaleness.seconds) + .nanoseconds(Int64(proto.maximumStaleness.nanos)) : nil
        vehicleTypeCategories = try proto.vehicleTypeCategories.map { value throws(APIError) in
            try VehicleType.Category(proto: value, field: "vehicleTypeCategories")
        }
        requiredAttributes = proto.requiredAttributes
        requiredOneOfAttributes = proto.requiredOneOfAttributes
        requiredOneOfAttributeSets = proto.requiredOneOfAttributeSets
        vehicleState = try .unlessUnset(proto.vehicleState, field: "vehicleState")
        onTripOnly = proto.onTripOnly
    }
}

extension ListVehiclesResponse {
    /// The page as a generated message.
    var proto: Maps_Fleetengine_V1_ListVehiclesResponse {
        .with { message in
            message.vehicles = vehicles.map(\.proto)
            message.nextPageToken = nextPageToken
            message.totalSize = Int64(totalSize)
        }
    }
}

extension SearchTripsQuery {
    /// The query of a SearchTrips request.
    init(proto: Maps_Fleetengine_V1_SearchTripsRequest) throws(APIError) {
        try proto.requireKnownFields("the request")
        self.init(
            vehicleId: proto.vehicleID.nonEmpty, activeTripsOnly: proto.activeTripsOnly, pageSize: Int(proto.pageSize),
            pageToken: proto.pageToken)
        if proto.hasMinimumStaleness { minimumStaleness = "\(proto.minimumStaleness.seconds)s" }
    }
}

extension SearchTripsResponse {
    /// The page as a generated message.
    var proto: Maps_Fleetengine_V1_SearchTripsResponse {
        .with { message in
            message.trips = trips.map(\.proto)
            message.nextPageToken = nextPageToken
        }
    }
}
