import SwiftProtobuf

/// The rules of a vehicle search, as Fleet Engine applies them.
extension SearchVehiclesRequest {
    /// The radius Fleet Engine accepts, in meters.
    package static let radiusRange: ClosedRange<Int32> = 400...10_000
    /// How many matches a search may ask for.
    package static let countRange: ClosedRange<Int32> = 1...50
    /// The staleness used when the request gives none, as at Google.
    package static let defaultMaximumStaleness = Duration.seconds(300)

    /// Refuses a search that lacks a required field, has an invalid one, or combines fields
    /// that Google's API does not allow together.
    package func validate() throws(InvalidArgument) {
        try requireKnownFields("the request")
        guard hasPickupPoint else { throw InvalidArgument("pickupPoint.point is required") }
        try pickupPoint.validate(field: "pickupPoint")
        if hasDropoffPoint { try dropoffPoint.validate(field: "dropoffPoint") }
        guard Self.radiusRange.contains(pickupRadiusMeters) else {
            throw InvalidArgument(
                "pickupRadiusMeters must be from \(Self.radiusRange.lowerBound) to \(Self.radiusRange.upperBound)")
        }
        guard Self.countRange.contains(count) else {
            throw InvalidArgument("count must be from \(Self.countRange.lowerBound) to \(Self.countRange.upperBound)")
        }
        guard minimumCapacity >= 1 else { throw InvalidArgument("minimumCapacity must be at least 1") }
        guard !tripTypes.isEmpty else { throw InvalidArgument("tripTypes must list SHARED and/or EXCLUSIVE") }
        try TripType.requireSharedOrExclusive(tripTypes, "tripTypes")
        guard !vehicleTypes.isEmpty else { throw InvalidArgument("vehicleTypes must list at least one vehicle type") }
        for (index, type) in vehicleTypes.enumerated() {
            try type.category.requireDefined("vehicleTypes[\(index)].category")
        }
        guard !vehicleTypes.contains(where: { $0.category.isUnset }) else {
            throw InvalidArgument("vehicleTypes must not contain UNKNOWN")
        }
        try orderBy.requireDefined("orderBy")
        guard !orderBy.isUnset else { throw InvalidArgument("orderBy is required") }
        if orderBy == .dropoffPointEta, !hasDropoffPoint {
            throw InvalidArgument("orderBy DROPOFF_POINT_ETA needs a dropoffPoint")
        }
        if hasMaximumStaleness { try maximumStaleness.validateAsStaleness() }
        try currentTripsPresent.requireDefined("currentTripsPresent")
        if !currentTripsPresent.isUnset, includeBackToBack {
            throw InvalidArgument("includeBackToBack cannot be true when currentTripsPresent is set")
        }
        if tripTypes.contains(.shared), currentTripsPresent.isUnset {
            throw InvalidArgument("currentTripsPresent must be NONE or ANY when tripTypes includes SHARED")
        }
        for (field, attributes) in [("requiredAttributes", requiredAttributes)] + attributeLists {
            for (index, attribute) in attributes.enumerated() { try attribute.validate(field: "\(field)[\(index)]") }
        }
        if !filter.isEmpty {
            throw InvalidArgument("filter is not supported by the local Fleet Engine's vehicle search yet")
        }
    }

    /// The attributes of the one-of filters, each list named for refusals.
    private var attributeLists: [(String, [VehicleAttribute])] {
        let oneOf = requiredOneOfAttributes.enumerated().map {
            ("requiredOneOfAttributes[\($0.offset)].attributes", $0.element.attributes)
        }
        let sets = requiredOneOfAttributeSets.enumerated().map {
            ("requiredOneOfAttributeSets[\($0.offset)].attributes", $0.element.attributes)
        }
        return oneOf + sets
    }

    /// How long ago a vehicle's location may have been received: the request's
    /// `maximumStaleness`, or 5 minutes.
    var staleness: Duration {
        hasMaximumStaleness ? maximumStaleness.duration : Self.defaultMaximumStaleness
    }
}

extension Google_Protobuf_Duration {
    /// The bound on `maximumStaleness` (ListVehicles, SearchVehicles): 100,000,000,000 s,
    /// beyond any staleness worth asking for, and what the REST door's document states.
    static let maximumStaleness = Duration.seconds(100_000_000_000)

    /// The duration as Swift's.
    var duration: Duration {
        .seconds(seconds) + .nanoseconds(Int64(nanos))
    }

    /// Refuses a `maximumStaleness` that is not positive or not below ``maximumStaleness``.
    func validateAsStaleness() throws(InvalidArgument) {
        if duration <= .zero { throw InvalidArgument("maximumStaleness must be a positive duration") }
        if duration >= Self.maximumStaleness {
            throw InvalidArgument("maximumStaleness must be less than 100000000000s")
        }
    }
}
