import FleetTokens

/// The rules a trip's fields must follow when it is created or updated. Whether `vehicleId`
/// names an existing vehicle is checked where the vehicles are (``EngineState``).
extension Trip {
    /// The fields every new trip must have (Fleet Engine's `CreateTrip` rule).
    package static let requiredOnCreation: Set<TripField> = [.pickupPoint]

    /// Refuses a new trip that lacks a required field or has an invalid one.
    package func validateForCreation() throws(InvalidArgument) {
        try requireKnownFields("trip")
        try requireDefinedEnums()
        guard !tripType.isUnset else { throw InvalidArgument("tripType is required (SHARED or EXCLUSIVE)") }
        for field in TripField.allCases {
            try validate(field, required: Self.requiredOnCreation.contains(field))
        }
    }

    /// Refuses an update whose masked fields are invalid (`vehicleId` and `dropoffPoint` may be
    /// left out: that clears them).
    package func validateUpdate(of fields: Set<TripField>) throws(InvalidArgument) {
        try requireKnownFields("trip")
        try requireDefinedEnums()
        for field in TripField.allCases where fields.contains(field) {
            try validate(field, required: field == .tripStatus || field == .pickupPoint)
        }
    }

    /// Refuses an update that changes the status of a finished trip.
    package func validateStatusChange(from current: Trip, fields: Set<TripField>) throws(InvalidArgument) {
        if fields.contains(.tripStatus), current.tripStatus.isFinal, tripStatus != current.tripStatus {
            let status = current.tripStatus == .complete ? "COMPLETE" : "CANCELED"
            throw InvalidArgument("the trip is \(status); a finished trip's tripStatus cannot change")
        }
    }

    /// Refuses enum values the API does not define, masked or not.
    private func requireDefinedEnums() throws(InvalidArgument) {
        try tripStatus.requireDefined("tripStatus")
        try tripType.requireDefined("tripType")
    }

    /// Copies `field` of `source` into `target` (an unset message field stays unset).
    static func copy(_ field: TripField, from source: Trip, to target: inout Trip) {
        switch field {
        case .vehicleId: target.vehicleID = source.vehicleID
        case .tripStatus: target.tripStatus = source.tripStatus
        case .pickupPoint:
            if source.hasPickupPoint { target.pickupPoint = source.pickupPoint } else { target.clearPickupPoint() }
        case .dropoffPoint:
            if source.hasDropoffPoint { target.dropoffPoint = source.dropoffPoint } else { target.clearDropoffPoint() }
        case .numberOfPassengers: target.numberOfPassengers = source.numberOfPassengers
        }
    }

    private func validate(_ field: TripField, required: Bool) throws(InvalidArgument) {
        let name = field.rawValue
        switch field {
        case .vehicleId:
            guard !vehicleID.isEmpty else {
                if required { throw InvalidArgument("\(name) is required") }
                return
            }
            if let problem = FleetEngineIdentifier.problem(with: vehicleID) {
                throw InvalidArgument("\(name) \(problem)")
            }
        case .tripStatus:
            if tripStatus.isUnset, required { throw InvalidArgument("\(name) is required") }
        case .pickupPoint, .dropoffPoint:
            let isSet = field == .pickupPoint ? hasPickupPoint : hasDropoffPoint
            guard isSet else {
                if required { throw InvalidArgument("\(name) is required") }
                return
            }
            try (field == .pickupPoint ? pickupPoint : dropoffPoint).validate(field: name)
        case .numberOfPassengers:
            guard numberOfPassengers >= 0 else {
                throw InvalidArgument("\(name) is \(numberOfPassengers); it must not be negative")
            }
        }
    }
}
