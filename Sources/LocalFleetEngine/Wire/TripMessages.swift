import FleetEngineProtos
import ServerHTTP

// The trip model to and from Fleet Engine's generated messages (zero values are "not set").

extension Trip {
    /// The trip of a request; 400 naming the field for fields the engine does not keep.
    package init(proto: Maps_Fleetengine_V1_Trip) throws(APIError) {
        try proto.requireKnownFields("trip")
        self.init(
            name: proto.name.nonEmpty,
            vehicleId: proto.vehicleID.nonEmpty,
            tripStatus: try .unlessUnset(proto.tripStatus, field: "tripStatus"),
            tripType: try .unlessUnset(proto.tripType, field: "tripType"),
            pickupPoint: proto.hasPickupPoint ? try TerminalLocation(proto: proto.pickupPoint, field: "pickupPoint") : nil,
            dropoffPoint: proto.hasDropoffPoint ? try TerminalLocation(proto: proto.dropoffPoint, field: "dropoffPoint") : nil,
            numberOfPassengers: proto.numberOfPassengers == 0 ? nil : Int(proto.numberOfPassengers)
        )
    }

    /// The trip as a generated message.
    package var proto: Maps_Fleetengine_V1_Trip {
        .with { message in
            message.name = name ?? ""
            message.vehicleID = vehicleId ?? ""
            if let tripStatus { message.tripStatus = tripStatus.proto() }
            if let tripType { message.tripType = tripType.proto() }
            if let pickupPoint { message.pickupPoint = pickupPoint.proto }
            if let dropoffPoint { message.dropoffPoint = dropoffPoint.proto }
            message.numberOfPassengers = Int32(clamping: numberOfPassengers ?? 0)
        }
    }
}

extension TerminalLocation {
    /// The place of a request; `field` names it in refusals.
    init(proto: Maps_Fleetengine_V1_TerminalLocation, field: String) throws(APIError) {
        try proto.requireKnownFields(field)
        self.init(point: proto.hasPoint ? try LatLng(proto: proto.point, field: "\(field).point") : nil)
    }

    /// The place as a generated message.
    var proto: Maps_Fleetengine_V1_TerminalLocation {
        .with { message in
            if let point { message.point = point.proto }
        }
    }
}

extension BillableTripReport {
    /// The report of a ReportBillableTrip request.
    init(proto: Maps_Fleetengine_V1_ReportBillableTripRequest) throws(APIError) {
        try proto.requireKnownFields("the request")
        self.init(
            countryCode: proto.countryCode.nonEmpty,
            platform: try .unlessUnset(proto.platform, field: "platform"),
            relatedIds: proto.relatedIds.nonEmpty,
            solutionType: try .unlessUnset(proto.solutionType, field: "solutionType"))
    }
}
