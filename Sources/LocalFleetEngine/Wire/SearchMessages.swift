import FleetEngineProtos
import ServerHTTP

extension SearchVehiclesRequest {
    /// The search of a request (zero values are "not set").
    init(proto: Maps_Fleetengine_V1_SearchVehiclesRequest) throws(APIError) {
        try proto.requireKnownFields("the request")
        self.init()
        pickupPoint = proto.hasPickupPoint ? try TerminalLocation(proto: proto.pickupPoint, field: "pickupPoint") : nil
        dropoffPoint = proto.hasDropoffPoint ? try TerminalLocation(proto: proto.dropoffPoint, field: "dropoffPoint") : nil
        pickupRadiusMeters = Int(proto.pickupRadiusMeters)
        count = Int(proto.count)
        minimumCapacity = Int(proto.minimumCapacity)
        tripTypes = try proto.tripTypes.map { value throws(APIError) in try TripType(proto: value, field: "tripTypes") }
        maximumStaleness = proto.hasMaximumStaleness
            ? .seconds(proto.maximumStaleness.seconds) + .nanoseconds(Int64(proto.maximumStaleness.nanos)) : nil
        vehicleTypes = try proto.vehicleTypes.map { value throws(APIError) in try VehicleType(proto: value) }
        requiredAttributes = try Self.attributes(proto.requiredAttributes, field: "requiredAttributes")
        requiredOneOfAttributes = try proto.requiredOneOfAttributes.enumerated().map { index, list throws(APIError) in
            VehicleAttributeList(attributes: try Self.attributes(list.attributes, field: "requiredOneOfAttributes[\(index)].attributes"))
        }
        requiredOneOfAttributeSets = try proto.requiredOneOfAttributeSets.enumerated().map { index, list throws(APIError) in
            VehicleAttributeList(attributes: try Self.attributes(list.attributes, field: "requiredOneOfAttributeSets[\(index)].attributes"))
        }
        orderBy = try .unlessUnset(proto.orderBy, field: "orderBy")
        includeBackToBack = proto.includeBackToBack
        tripId = proto.tripID.nonEmpty
        currentTripsPresent = try .unlessUnset(proto.currentTripsPresent, field: "currentTripsPresent")
        filter = proto.filter.nonEmpty
    }

    private static func attributes(_ attributes: [Maps_Fleetengine_V1_VehicleAttribute], field: String) throws(APIError) -> [VehicleAttribute] {
        try attributes.enumerated().map { index, attribute throws(APIError) in try VehicleAttribute(proto: attribute, field: "\(field)[\(index)]") }
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
            message.tripType = tripType.proto()
            message.vehicleMatchType = vehicleMatchType.proto()
            message.requestedOrderedBy = requestedOrderedBy.proto()
            message.orderedBy = orderedBy.proto()
        }
    }
}
