import FleetEngineProtos
import ServerHTTP
import SwiftProtobuf

// The vehicle model to and from Fleet Engine's generated messages. proto3 cannot tell an unset
// scalar from its zero value, so a zero, an empty string or an empty list arrives as "not set",
// as it does when Google's REST API reads proto3 JSON.

extension Vehicle {
    /// The vehicle of a request; 400 naming the field for fields the engine does not keep.
    package init(proto: Maps_Fleetengine_V1_Vehicle) throws(APIError) {
        try proto.requireKnownFields("vehicle")
        self.init(
            name: proto.name.nonEmpty,
            vehicleState: try .unlessUnset(proto.vehicleState, field: "vehicleState"),
            supportedTripTypes: try proto.supportedTripTypes.nonEmpty?.map { value throws(APIError) in
                try TripType(proto: value, field: "supportedTripTypes")
            },
            lastLocation: proto.hasLastLocation ? try VehicleLocation(proto: proto.lastLocation, field: "lastLocation") : nil,
            maximumCapacity: proto.maximumCapacity == 0 ? nil : Int(proto.maximumCapacity),
            attributes: try proto.attributes.nonEmpty?.enumerated().map { index, attribute throws(APIError) in
                try VehicleAttribute(proto: attribute, field: "attributes[\(index)]")
            },
            vehicleType: proto.hasVehicleType ? try VehicleType(proto: proto.vehicleType) : nil
        )
    }

    /// The vehicle as a generated message.
    package var proto: Maps_Fleetengine_V1_Vehicle {
        .with { message in
            message.name = name ?? ""
            if let vehicleState { message.vehicleState = vehicleState.proto() }
            message.supportedTripTypes = (supportedTripTypes ?? []).map { $0.proto() }
            message.currentTrips = currentTrips ?? []
            if let lastLocation { message.lastLocation = lastLocation.proto }
            message.maximumCapacity = Int32(clamping: maximumCapacity ?? 0)
            message.attributes = (attributes ?? []).map(\.proto)
            if let vehicleType { message.vehicleType = .with { $0.category = vehicleType.category.proto() } }
        }
    }
}

extension [VehicleAttribute] {
    /// The attributes of an UpdateVehicleAttributes request.
    init(proto request: Maps_Fleetengine_V1_UpdateVehicleAttributesRequest) throws(APIError) {
        try request.requireKnownFields("the request")
        self = try request.attributes.enumerated().map { index, attribute throws(APIError) in
            try VehicleAttribute(proto: attribute, field: "attributes[\(index)]")
        }
    }
}

extension VehicleType {
    /// The vehicle type of a request.
    init(proto: Maps_Fleetengine_V1_Vehicle.VehicleType) throws(APIError) {
        try proto.requireKnownFields("vehicleType")
        self.init(category: try Category(proto: proto.category, field: "vehicleType.category"))
    }
}

extension VehicleLocation {
    /// The location of a request; `field` names it in refusals.
    init(proto: Maps_Fleetengine_V1_VehicleLocation, field: String) throws(APIError) {
        try proto.requireKnownFields(field)
        self.init(
            location: proto.hasLocation ? try LatLng(proto: proto.location, field: "\(field).location") : nil,
            heading: proto.hasHeading ? Int(proto.heading.value) : nil,
            speed: proto.hasSpeed ? proto.speed.value : nil,
            updateTime: proto.hasUpdateTime ? ProtoTimestamp(proto: proto.updateTime) : nil
        )
        latlngAccuracy = proto.hasLatlngAccuracy ? proto.latlngAccuracy.value : nil
        headingAccuracy = proto.hasHeadingAccuracy ? proto.headingAccuracy.value : nil
        speedAccuracy = proto.hasSpeedAccuracy ? proto.speedAccuracy.value : nil
        altitude = proto.hasAltitude ? proto.altitude.value : nil
        altitudeAccuracy = proto.hasAltitudeAccuracy ? proto.altitudeAccuracy.value : nil
        serverTime = proto.hasServerTime ? ProtoTimestamp(proto: proto.serverTime) : nil
        locationSensor = try .unlessUnset(proto.locationSensor, field: "\(field).locationSensor")
        isRoadSnapped = proto.hasIsRoadSnapped ? proto.isRoadSnapped.value : nil
    }

    /// The location as a generated message.
    var proto: Maps_Fleetengine_V1_VehicleLocation {
        .with { message in
            if let location { message.location = location.proto }
            if let heading { message.heading = .init(Int32(clamping: heading)) }
            if let speed { message.speed = .init(speed) }
            if let updateTime { message.updateTime = updateTime.proto }
            if let latlngAccuracy { message.latlngAccuracy = .init(latlngAccuracy) }
            if let headingAccuracy { message.headingAccuracy = .init(headingAccuracy) }
            if let speedAccuracy { message.speedAccuracy = .init(speedAccuracy) }
            if let altitude { message.altitude = .init(altitude) }
            if let altitudeAccuracy { message.altitudeAccuracy = .init(altitudeAccuracy) }
            if let serverTime { message.serverTime = serverTime.proto }
            if let locationSensor { message.locationSensor = locationSensor.proto() }
            if let isRoadSnapped { message.isRoadSnapped = .init(isRoadSnapped) }
        }
    }
}

extension VehicleAttribute {
    /// The attribute of a request; `field` names it in refusals.
    init(proto: Maps_Fleetengine_V1_VehicleAttribute, field: String) throws(APIError) {
        try proto.requireKnownFields(field)
        self.init(key: proto.key, value: proto.value.nonEmpty)
        switch proto.vehicleAttributeValue {
        case .stringValue(let text): stringValue = text
        case .boolValue(let flag): boolValue = flag
        case .numberValue(let number): numberValue = number
        case nil: break
        }
    }

    /// The attribute as a generated message.
    var proto: Maps_Fleetengine_V1_VehicleAttribute {
        .with { message in
            message.key = key
            message.value = value ?? ""
            if let stringValue { message.stringValue = stringValue }
            if let boolValue { message.boolValue = boolValue }
            if let numberValue { message.numberValue = numberValue }
        }
    }
}

extension LatLng {
    /// The point of a request; `field` names it in refusals.
    init(proto: Google_Type_LatLng, field: String) throws(APIError) {
        try proto.requireKnownFields(field)
        self.init(latitude: proto.latitude, longitude: proto.longitude)
    }

    /// The point as a generated message.
    var proto: Google_Type_LatLng {
        .with { message in
            message.latitude = latitude
            message.longitude = longitude
        }
    }
}

extension ProtoTimestamp {
    /// The time of a generated `Timestamp`.
    init(proto: Google_Protobuf_Timestamp) {
        self.init(seconds: proto.seconds, nanos: proto.nanos)
    }

    /// The time as a generated `Timestamp`.
    var proto: Google_Protobuf_Timestamp {
        Google_Protobuf_Timestamp(seconds: seconds, nanos: nanos)
    }
}
