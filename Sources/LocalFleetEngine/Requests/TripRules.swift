import FleetTokens

/// The rules a trip's fields must follow when it is created or updated. Whether `vehicleId`
/// names an existing vehicle is checked where the vehicles are (``FleetState``).
extension Trip {
    /// The fields every new trip must have (Fleet Engine's `CreateTrip` rule).
    package static let requiredOnCreation: Set<TripField> = [.pickupPoint]

    /// Refuses a new trip that lacks a required field or has an invalid one.
    package func validateForCreation() throws(InvalidArgument) {
        guard let tripType, tripType != .unknown else { throw InvalidArgument("tripType is required (SHARED or EXCLUSIVE)") }
        for field in TripField.allCases {
            try validate(field, required: Self.requiredOnCreation.contains(field))
        }
    }

    /// Refuses an update whose masked fields are invalid (`vehicleId` and `dropoffPoint` may be
    /// left out: that clears them).
    package func validateUpdate(of fields: Set<TripField>) throws(InvalidArgument) {
        for field in TripField.allCases where fields.contains(field) {
            try validate(field, required: field == .tripStatus || field == .pickupPoint)
        }
    }

    /// Refuses an update that changes the status of a finished trip.
    package func validateStatusChange(from current: Trip, fields: Set<TripField>) throws(InvalidArgument) {
        if fields.contains(.tripStatus), let status = current.tripStatus, status.isFinal, tripStatus != status {
            throw InvalidArgument("the trip is \(status.rawValue); a finished trip's tripStatus cannot change")
        }
    }

    /// Copies `field` of `source` into `target`.
    static func copy(_ field: TripField, from source: Trip, to target: inout Trip) {
        switch field {
        case .vehicleId: target.vehicleId = source.vehicleId
        case .tripStatus: target.tripStatus = source.tripStatus
        case .pickupPoint: target.pickupPoint = source.pickupPoint
        case .dropoffPoint: target.dropoffPoint = source.dropoffPoint
        case .numberOfPassengers: target.numberOfPassengers = source.numberOfPassengers
        }
    }

    private func validate(_ field: TripField, required: Bool) throws(InvalidArgument) {
        let name = field.rawValue
        switch field {
        case .vehicleId:
            guard let vehicleId = try InvalidArgument.presence(of: vehicleId.flatMap { $0.isEmpty ? nil : $0 }, name, required: required) else {
                return
            }
            if let problem = FleetEngineIdentifier.problem(with: vehicleId) { throw InvalidArgument("\(name) \(problem)") }
        case .tripStatus:
            guard let tripStatus = try InvalidArgument.presence(of: tripStatus, name, required: required) else { return }
            guard tripStatus != .unknown else { throw InvalidArgument("\(name) must not be UNKNOWN_TRIP_STATUS") }
        case .pickupPoint, .dropoffPoint:
            let terminal = field == .pickupPoint ? pickupPoint : dropoffPoint
            guard let terminal = try InvalidArgument.presence(of: terminal, name, required: required) else { return }
            guard let point = terminal.point else { throw InvalidArgument("\(name).point is required") }
            try point.validate(field: "\(name).point")
        case .numberOfPassengers:
            guard let numberOfPassengers else { return }
            guard numberOfPassengers >= 0 else { throw InvalidArgument("\(name) is \(numberOfPassengers); it must not be negative") }
        }
    }
}
