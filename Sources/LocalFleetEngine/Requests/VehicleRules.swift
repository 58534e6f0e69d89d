/// The rules a vehicle's fields must follow when it is created or updated.
extension Vehicle {
    /// The most attributes a vehicle may carry.
    package static let maximumAttributes = 100

    /// The fields every new vehicle must have (Fleet Engine's `CreateVehicle` rule).
    package static let requiredOnCreation: Set<VehicleField> = [.vehicleState, .supportedTripTypes, .maximumCapacity, .vehicleType]

    /// Refuses a new vehicle that lacks a required field or has an invalid one.
    package func validateForCreation() throws(InvalidArgument) {
        for field in VehicleField.allCases {
            try validate(field, required: Self.requiredOnCreation.contains(field))
        }
    }

    /// Refuses an update that does not carry a valid value for every field in `fields`
    /// (`attributes` may be left out: that removes them all).
    package func validateUpdate(of fields: Set<VehicleField>) throws(InvalidArgument) {
        for field in VehicleField.allCases where fields.contains(field) {
            try validate(field, required: field != .attributes)
        }
    }

    /// Copies `field` of `source` into `target`.
    static func copy(_ field: VehicleField, from source: Vehicle, to target: inout Vehicle) {
        switch field {
        case .lastLocation: target.lastLocation = source.lastLocation
        case .vehicleState: target.vehicleState = source.vehicleState
        case .attributes: target.attributes = source.attributes
        case .supportedTripTypes: target.supportedTripTypes = source.supportedTripTypes
        case .maximumCapacity: target.maximumCapacity = source.maximumCapacity
        case .vehicleType: target.vehicleType = source.vehicleType
        }
    }

    private func validate(_ field: VehicleField, required: Bool) throws(InvalidArgument) {
        let name = field.rawValue
        switch field {
        case .lastLocation:
            guard let lastLocation = try InvalidArgument.presence(of: lastLocation, name, required: required) else { return }
            try lastLocation.validate(field: name)
        case .vehicleState:
            guard let vehicleState = try InvalidArgument.presence(of: vehicleState, name, required: required) else { return }
            guard vehicleState != .unknown else { throw InvalidArgument("\(name) must be OFFLINE or ONLINE") }
        case .supportedTripTypes:
            guard let types = try InvalidArgument.presence(of: supportedTripTypes.flatMap { $0.isEmpty ? nil : $0 }, name, required: required) else {
                return
            }
            guard !types.contains(.unknown) else { throw InvalidArgument("\(name) must list SHARED and/or EXCLUSIVE") }
        case .maximumCapacity:
            guard let maximumCapacity = try InvalidArgument.presence(of: maximumCapacity, name, required: required) else { return }
            guard maximumCapacity >= 1 else { throw InvalidArgument("\(name) is \(maximumCapacity); it must be at least 1") }
        case .vehicleType:
            guard let vehicleType = try InvalidArgument.presence(of: vehicleType, name, required: required) else { return }
            guard vehicleType.category != .unknown else { throw InvalidArgument("\(name).category is required (e.g. AUTO)") }
        case .attributes:
            let attributes = attributes ?? []
            guard attributes.count <= Self.maximumAttributes else {
                throw InvalidArgument("\(name) has \(attributes.count) entries; at most \(Self.maximumAttributes) are allowed")
            }
            var keys: Set<String> = []
            for (index, attribute) in attributes.enumerated() {
                try attribute.validate(field: "\(name)[\(index)]")
                guard keys.insert(attribute.key).inserted else { throw InvalidArgument("\(name) has the key '\(attribute.key)' twice") }
            }
        }
    }
}
