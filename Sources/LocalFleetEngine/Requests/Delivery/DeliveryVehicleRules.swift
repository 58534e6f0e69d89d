import FleetEngineProtos

/// The rules a delivery vehicle's fields follow when it is created or updated. A field is set
/// when it is not proto3's zero value.
extension DeliveryVehicle {
    /// The most attributes a delivery vehicle may carry.
    static let maximumAttributes = 100

    /// The fields CreateDeliveryVehicle accepts.
    static let settableOnCreation: Set<DeliveryVehicleField> = [.lastLocation, .attributes, .type]

    /// Refuses a new vehicle with a field other than `type`, `lastLocation` and `attributes`,
    /// or an invalid one. Google's stops are set by UpdateDeliveryVehicle only.
    func validateForCreation() throws(InvalidArgument) {
        try requireKnownFields("deliveryVehicle")
        try requireDefinedEnums()
        if !pastLocations.isEmpty {
            throw InvalidArgument("deliveryVehicle.pastLocations cannot be set when the vehicle is created")
        }
        for field in DeliveryVehicleField.allCases where isSet(field) {
            guard Self.settableOnCreation.contains(field) else {
                throw InvalidArgument(
                    "deliveryVehicle.\(field.rawValue) cannot be set when the vehicle is created; only type, lastLocation and attributes can"
                )
            }
            try validate(field)
        }
    }

    /// Refuses an update that does not carry a valid value for every field in `fields` that
    /// must have one (`lastLocation` and `type`; the others may be cleared).
    func validateUpdate(of fields: Set<DeliveryVehicleField>) throws(InvalidArgument) {
        try requireKnownFields("deliveryVehicle")
        try requireDefinedEnums()
        for field in DeliveryVehicleField.allCases where fields.contains(field) {
            guard isSet(field) else {
                if field == .lastLocation || field == .type {
                    throw InvalidArgument("deliveryVehicle.\(field.rawValue) is named by updateMask but not given")
                }
                continue
            }
            try validate(field)
        }
    }

    /// Copies `field` of `source` into `target` (an unset message field stays unset).
    static func copy(_ field: DeliveryVehicleField, from source: DeliveryVehicle, to target: inout DeliveryVehicle) {
        switch field {
        case .lastLocation:
            if source.hasLastLocation { target.lastLocation = source.lastLocation } else { target.clearLastLocation() }
        case .navigationStatus: target.navigationStatus = source.navigationStatus
        case .currentRouteSegment: target.currentRouteSegment = source.currentRouteSegment
        case .currentRouteSegmentEndPoint:
            if source.hasCurrentRouteSegmentEndPoint {
                target.currentRouteSegmentEndPoint = source.currentRouteSegmentEndPoint
            } else {
                target.clearCurrentRouteSegmentEndPoint()
            }
        case .remainingDistanceMeters:
            if source.hasRemainingDistanceMeters {
                target.remainingDistanceMeters = source.remainingDistanceMeters
            } else {
                target.clearRemainingDistanceMeters()
            }
        case .remainingDuration:
            if source.hasRemainingDuration {
                target.remainingDuration = source.remainingDuration
            } else {
                target.clearRemainingDuration()
            }
        case .remainingVehicleJourneySegments:
            target.remainingVehicleJourneySegments = source.remainingVehicleJourneySegments.map(\.kept)
        case .attributes: target.attributes = source.attributes
        case .type: target.type = source.type
        }
    }

    /// Whether `field` is set.
    func isSet(_ field: DeliveryVehicleField) -> Bool {
        switch field {
        case .lastLocation: hasLastLocation
        case .navigationStatus: !navigationStatus.isUnset
        case .currentRouteSegment: !currentRouteSegment.isEmpty
        case .currentRouteSegmentEndPoint: hasCurrentRouteSegmentEndPoint
        case .remainingDistanceMeters: hasRemainingDistanceMeters
        case .remainingDuration: hasRemainingDuration
        case .remainingVehicleJourneySegments: !remainingVehicleJourneySegments.isEmpty
        case .attributes: !attributes.isEmpty
        case .type: !type.isUnset
        }
    }

    private func validate(_ field: DeliveryVehicleField) throws(InvalidArgument) {
        let name = "deliveryVehicle.\(field.rawValue)"
        switch field {
        case .lastLocation: try lastLocation.validate(field: name)
        case .currentRouteSegmentEndPoint: try currentRouteSegmentEndPoint.validate(field: name)
        case .remainingDistanceMeters:
            guard remainingDistanceMeters.value >= 0 else {
                throw InvalidArgument("\(name) is \(remainingDistanceMeters.value); it must not be negative")
            }
        case .remainingDuration:
            guard remainingDuration.seconds >= 0, remainingDuration.nanos >= 0 else {
                throw InvalidArgument("\(name) must not be negative")
            }
        case .attributes:
            try Maps_Fleetengine_Delivery_V1_DeliveryVehicleAttribute.validate(
                attributes, maximum: Self.maximumAttributes, field: name)
        case .navigationStatus, .currentRouteSegment, .remainingVehicleJourneySegments, .type:
            return  // enums checked first; stops by JourneyPlan, against the tasks
        }
    }

    private func requireDefinedEnums() throws(InvalidArgument) {
        try type.requireDefined("deliveryVehicle.type")
        try navigationStatus.requireDefined("deliveryVehicle.navigationStatus")
        try lastLocation.locationSensor.requireDefined("deliveryVehicle.lastLocation.locationSensor")
    }
}
