/// The rules a vehicle's fields must follow when it is created or updated. A field is set when
/// it is not proto3's zero value.
extension Vehicle {
    /// The most attributes a vehicle may carry.
    package static let maximumAttributes = 100

    /// The fields every new vehicle must have (Fleet Engine's `CreateVehicle` rule).
    package static let requiredOnCreation: Set<VehicleField> = [
        .vehicleState, .supportedTripTypes, .maximumCapacity, .vehicleType,
    ]

    /// Refuses a new vehicle that lacks a required field or has an invalid one.
    package func validateForCreation() throws(InvalidArgument) {
        try requireKnownFields("vehicle")
        try requireDefinedEnums()
        for field in VehicleField.allCases {
            try validate(field, required: Self.requiredOnCreation.contains(field))
        }
    }

    /// Refuses an update that does not carry a valid value for every field in `fields`
    /// (`attributes` may be left out: that removes them all).
    package func validateUpdate(of fields: Set<VehicleField>) throws(InvalidArgument) {
        try requireKnownFields("vehicle")
        try requireDefinedEnums()
        for field in VehicleField.allCases where fields.contains(field) {
            try validate(field, required: field != .attributes)
        }
    }

    /// Copies `field` of `source` into `target` (an unset message field stays unset).
    static func copy(_ field: VehicleField, from source: Vehicle, to target: inout Vehicle) {
        switch field {
        case .lastLocation:
            if source.hasLastLocation { target.lastLocation = source.lastLocation } else { target.clearLastLocation() }
        case .vehicleState: target.vehicleState = source.vehicleState
        case .attributes: target.attributes = source.attributes
        case .supportedTripTypes: target.supportedTripTypes = source.supportedTripTypes
        case .maximumCapacity: target.maximumCapacity = source.maximumCapacity
        case .vehicleType:
            if source.hasVehicleType { target.vehicleType = source.vehicleType } else { target.clearVehicleType() }
        }
    }

    /// Refuses enum values the API does not define anywhere in the vehicle, masked or not (an
    /// update's other fields are not copied, but a body that is not Google's is still refused).
    private func requireDefinedEnums() throws(InvalidArgument) {
        try vehicleState.requireDefined("vehicleState")
        for type in supportedTripTypes { try type.requireDefined("supportedTripTypes") }
        try vehicleType.category.requireDefined("vehicleType.category")
        try lastLocation.locationSensor.requireDefined("lastLocation.locationSensor")
    }

    /// Whether `field` is set.
    func isSet(_ field: VehicleField) -> Bool {
        switch field {
        case .lastLocation: hasLastLocation
        case .vehicleState: !vehicleState.isUnset
        case .attributes: !attributes.isEmpty
        case .supportedTripTypes: !supportedTripTypes.isEmpty
        case .maximumCapacity: maximumCapacity != 0
        case .vehicleType: hasVehicleType
        }
    }

    private func validate(_ field: VehicleField, required: Bool) throws(InvalidArgument) {
        let name = field.rawValue
        guard isSet(field) else {
            if required { throw InvalidArgument("\(name) is required") }
            return
        }
        switch field {
        case .lastLocation:
            try lastLocation.validate(field: name)
        case .vehicleState:
            return  // set and defined (checked first): OFFLINE or ONLINE
        case .supportedTripTypes:
            try TripType.requireSharedOrExclusive(supportedTripTypes, name)
        case .maximumCapacity:
            guard maximumCapacity >= 1 else {
                throw InvalidArgument("\(name) is \(maximumCapacity); it must be at least 1")
            }
        case .vehicleType:
            guard !vehicleType.category.isUnset else {
                throw InvalidArgument("\(name).category is required (e.g. AUTO)")
            }
        case .attributes:
            try VehicleAttribute.validate(attributes, maximum: Self.maximumAttributes, field: name)
        }
    }
}

extension TripType {
    /// Refuses a list of trip types with one that is not `SHARED` or `EXCLUSIVE`.
    static func requireSharedOrExclusive(_ types: [TripType], _ field: String) throws(InvalidArgument) {
        guard types.allSatisfy({ $0 == .shared || $0 == .exclusive }) else {
            throw InvalidArgument("\(field) must list SHARED and/or EXCLUSIVE")
        }
    }
}
