/// The rules of a vehicle search, as Fleet Engine applies them.
extension SearchVehiclesRequest {
    /// The radius Fleet Engine accepts, in meters.
    package static let radiusRange = 400...10_000
    /// How many matches a search may ask for.
    package static let countRange = 1...50
    /// The staleness used when the request gives none, as at Google.
    package static let defaultMaximumStaleness = Duration.seconds(300)

    /// Refuses a search that lacks a required field, has an invalid one, or combines fields
    /// that Google's API does not allow together.
    package func validate() throws(InvalidArgument) {
        guard let point = pickupPoint?.point else { throw InvalidArgument("pickupPoint.point is required") }
        try point.validate(field: "pickupPoint.point")
        if let dropoffPoint {
            guard let point = dropoffPoint.point else { throw InvalidArgument("dropoffPoint.point is required") }
            try point.validate(field: "dropoffPoint.point")
        }
        guard let radius = pickupRadiusMeters, Self.radiusRange.contains(radius) else {
            throw InvalidArgument("pickupRadiusMeters must be from \(Self.radiusRange.lowerBound) to \(Self.radiusRange.upperBound)")
        }
        guard let count, Self.countRange.contains(count) else {
            throw InvalidArgument("count must be from \(Self.countRange.lowerBound) to \(Self.countRange.upperBound)")
        }
        guard let minimumCapacity, minimumCapacity >= 1 else { throw InvalidArgument("minimumCapacity must be at least 1") }
        guard let tripTypes, !tripTypes.isEmpty, !tripTypes.contains(.unknown) else {
            throw InvalidArgument("tripTypes must list SHARED and/or EXCLUSIVE")
        }
        guard let vehicleTypes, !vehicleTypes.isEmpty else { throw InvalidArgument("vehicleTypes must list at least one vehicle type") }
        guard !vehicleTypes.contains(where: { $0.category == .unknown }) else { throw InvalidArgument("vehicleTypes must not contain UNKNOWN") }
        guard let orderBy, orderBy != .unknown else { throw InvalidArgument("orderBy is required") }
        if orderBy == .dropoffPointETA, dropoffPoint == nil { throw InvalidArgument("orderBy DROPOFF_POINT_ETA needs a dropoffPoint") }
        if let maximumStaleness, maximumStaleness <= .zero { throw InvalidArgument("maximumStaleness must be a positive duration") }
        if let maximumStaleness, maximumStaleness >= .maximumStaleness { throw InvalidArgument("maximumStaleness must be less than 100000000000s") }
        let trips = currentTripsPresent ?? .unspecified
        if trips != .unspecified, includeBackToBack == true {
            throw InvalidArgument("includeBackToBack cannot be true when currentTripsPresent is set")
        }
        if tripTypes.contains(.shared), trips == .unspecified {
            throw InvalidArgument("currentTripsPresent must be NONE or ANY when tripTypes includes SHARED")
        }
        for (field, attributes) in [("requiredAttributes", requiredAttributes ?? [])] + attributeLists {
            for (index, attribute) in attributes.enumerated() { try attribute.validate(field: "\(field)[\(index)]") }
        }
        if filter?.isEmpty == false { throw InvalidArgument("filter is not supported by the local Fleet Engine's vehicle search yet") }
    }

    /// The attributes of the one-of filters, each list named for refusals.
    private var attributeLists: [(String, [VehicleAttribute])] {
        let oneOf = (requiredOneOfAttributes ?? []).enumerated().map { ("requiredOneOfAttributes[\($0.offset)].attributes", $0.element.attributes ?? []) }
        let sets = (requiredOneOfAttributeSets ?? []).enumerated().map { ("requiredOneOfAttributeSets[\($0.offset)].attributes", $0.element.attributes ?? []) }
        return oneOf + sets
    }
}

extension Duration {
    /// The bound on `maximumStaleness` (ListVehicles, SearchVehicles): 100,000,000,000 s,
    /// beyond any staleness worth asking for, and what the REST door's document states.
    static let maximumStaleness = Duration.seconds(100_000_000_000)
}
