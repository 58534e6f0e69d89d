import FleetTokens

/// The rules a trip's fields must follow when it is created or updated. Whether `vehicleId`
/// names an existing vehicle is checked where the vehicles are (``FleetState``).
extension Trip {
    /// The fields every new trip must have (Fleet Engine's `CreateTrip` rule).
    public static let requiredOnCreation: Set<TripField> = [.pickupPoint]

    /// Refuses a new trip that lacks a required field or has an invalid one.
    public func validateForCreation() throws(InvalidArgument) {
        guard let tripType, tripType != .unknown else { throw InvalidArgument("tripType is required (SHARED or EXCLUSIVE)") }
        for field in TripField.allCases {
            try validate(field, required: Self.requiredOnCreation.contains(field))
        }
    }

    /// Refuses an update whose masked fields are invalid (`vehicleId` and `dropoffPoint` may be
    /// left out: that clears them).
    public func validateUpdate(of fields: Set<TripField>) throws(InvalidArgument) {
        for field in TripField.allCases where fields.contains(field) {
            try validate(field, required: field == .tripStatus || field == .pickupPoint)
        }
    }

    /// Refuses an update that changes the status of a finished trip.
    public func validateStatusChange(from current: Trip, fields: Set<TripField>) throws(InvalidArgument) {
        if fields.contains(.tripStatus), let status = current.tripStatus, status.isFinal, tripStatus != status {
            throw InvalidArgument("the trip is \(status.rawValue); a finished trip's tripStatus cannot change")
        }
    }

    /// This trip with the values of `fields` taken from `update`.
    public func applying(_ update: Trip, fields: Set<TripField>) -> Trip {
        var result = self
        for field in fields {
            switch field {
            case .vehicleId: result.vehicleId = update.vehicleId
            case .tripStatus: result.tripStatus = update.tripStatus
            case .pickupPoint: result.pickupPoint = update.pickupPoint
            case .dropoffPoint: result.dropoffPoint = update.dropoffPoint
            case .numberOfPassengers: result.numberOfPassengers = update.numberOfPassengers
            }
        }
        return result
    }

    private func validate(_ field: TripField, required: Bool) throws(InvalidArgument) {
        let name = field.rawValue
        func missing() -> InvalidArgument { InvalidArgument("\(name) is required") }
        switch field {
        case .vehicleId:
            guard let vehicleId, !vehicleId.isEmpty else { if required { throw missing() }; return }
            if let problem = FleetEngineIdentifier.problem(with: vehicleId) { throw InvalidArgument("\(name) \(problem)") }
        case .tripStatus:
            guard let tripStatus else { if required { throw missing() }; return }
            guard tripStatus != .unknown else { throw InvalidArgument("\(name) must not be UNKNOWN_TRIP_STATUS") }
        case .pickupPoint, .dropoffPoint:
            let terminal = field == .pickupPoint ? pickupPoint : dropoffPoint
            guard let terminal else { if required { throw missing() }; return }
            guard let point = terminal.point else { throw InvalidArgument("\(name).point is required") }
            try point.validate(field: "\(name).point")
        case .numberOfPassengers:
            guard let numberOfPassengers else { return }
            guard numberOfPassengers >= 0 else { throw InvalidArgument("\(name) is \(numberOfPassengers); it must not be negative") }
        }
    }
}
