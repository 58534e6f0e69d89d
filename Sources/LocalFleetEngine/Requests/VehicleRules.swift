/// The rules a vehicle's fields must follow when it is created or updated.
extension Vehicle {
    /// The most attributes a vehicle may carry.
    public static let maximumAttributes = 100

    /// The fields every new vehicle must have (Fleet Engine's `CreateVehicle` rule).
    public static let requiredOnCreation: Set<VehicleField> = [.vehicleState, .supportedTripTypes, .maximumCapacity, .vehicleType]

    /// Refuses a new vehicle that lacks a required field or has an invalid one.
    public func validateForCreation() throws(InvalidArgument) {
        for field in VehicleField.allCases {
            try validate(field, required: Self.requiredOnCreation.contains(field))
        }
    }

    /// Refuses an update that does not carry a valid value for every field in `fields`
    /// (`attributes` may be left out: that removes them all).
    public func validateUpdate(of fields: Set<VehicleField>) throws(InvalidArgument) {
        for field in VehicleField.allCases where fields.contains(field) {
            try validate(field, required: field != .attributes)
        }
    }

    /// This vehicle with the values of `fields` taken from `update`.
    public func applying(_ update: Vehicle, fields: Set<VehicleField>) -> Vehicle {
        var result = self
        for field in fields {
            switch field {
            case .lastLocation: result.lastLocation = update.lastLocation
            case .vehicleState: result.vehicleState = update.vehicleState
            case .attributes: result.attributes = update.attributes
            case .supportedTripTypes: result.supportedTripTypes = update.supportedTripTypes
            case .maximumCapacity: result.maximumCapacity = update.maximumCapacity
            case .vehicleType: result.vehicleType = update.vehicleType
            }
        }
        return result
    }

    private func validate(_ field: VehicleField, required: Bool) throws(InvalidArgument) {
        let name = field.rawValue
        func missing() -> InvalidArgument { InvalidArgument("\(name) is required") }
        switch field {
        case .lastLocation:
            guard let lastLocation else { if required { throw missing() }; return }
            try lastLocation.validate(field: name)
        case .vehicleState:
            guard let vehicleState else { if required { throw missing() }; return }
            guard vehicleState != .unknown else { throw InvalidArgument("\(name) must be OFFLINE or ONLINE") }
        case .supportedTripTypes:
            guard let types = supportedTripTypes, !types.isEmpty else { if required { throw missing() }; return }
            guard !types.contains(.unknown) else { throw InvalidArgument("\(name) must list SHARED and/or EXCLUSIVE") }
        case .maximumCapacity:
            guard let maximumCapacity else { if required { throw missing() }; return }
            guard maximumCapacity >= 1 else { throw InvalidArgument("\(name) is \(maximumCapacity); it must be at least 1") }
        case .vehicleType:
            guard let vehicleType else { if required { throw missing() }; return }
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
