import FleetEngineProtos
import FleetServerSupport

extension SearchVehiclesRequest {
    /// The search of a gRPC request. Filters of Google's API that the engine does not apply yet
    /// are refused by name (400), as REST refuses them as unknown fields, rather than ignored.
    init(proto: Maps_Fleetengine_V1_SearchVehiclesRequest) throws(APIError) {
        try proto.requireKnownFields("the request")
        let unsupported: [(String, Bool)] = [
            ("dropoffPoint", proto.hasDropoffPoint), ("maximumStaleness", proto.hasMaximumStaleness),
            ("requiredAttributes", !proto.requiredAttributes.isEmpty), ("requiredOneOfAttributes", !proto.requiredOneOfAttributes.isEmpty),
            ("requiredOneOfAttributeSets", !proto.requiredOneOfAttributeSets.isEmpty), ("includeBackToBack", proto.includeBackToBack),
            ("tripId", !proto.tripID.isEmpty), ("currentTripsPresent", proto.currentTripsPresent != .unspecified), ("filter", !proto.filter.isEmpty),
        ]
        if let (field, _) = unsupported.first(where: \.1) {
            throw .invalidArgument("\(field) is not supported by the local Fleet Engine's vehicle search yet")
        }
        self.init(
            unchecked: proto.hasPickupPoint ? try TerminalLocation(proto: proto.pickupPoint, field: "pickupPoint") : nil,
            pickupRadiusMeters: Int(proto.pickupRadiusMeters),
            count: Int(proto.count),
            minimumCapacity: Int(proto.minimumCapacity),
            tripTypes: try proto.tripTypes.map { value throws(APIError) in try TripType(proto: value, field: "tripTypes") },
            vehicleTypes: try proto.vehicleTypes.map { value throws(APIError) in try VehicleType(proto: value) },
            matchOrderBy: try .unlessUnset(proto.orderBy, field: "orderBy")
        )
    }
}

extension SearchVehiclesResponse {
    /// The matches as a generated message.
    var proto: Maps_Fleetengine_V1_SearchVehiclesResponse {
        .with { $0.matches = matches.map(\.proto) }
    }
}

extension VehicleMatch {
    /// The match as a generated message.
    var proto: Maps_Fleetengine_V1_VehicleMatch {
        .with { message in
            message.vehicle = vehicle.proto
            message.vehiclePickupStraightLineDistanceMeters = .init(Int32(clamping: vehiclePickupStraightLineDistanceMeters))
            message.vehicleMatchType = matchType.proto()
        }
    }
}
