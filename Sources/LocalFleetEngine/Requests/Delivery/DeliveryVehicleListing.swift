import FleetEngineProtos

/// ListDeliveryVehicles: a page of delivery vehicles by id (without their stops, as Google's
/// lists show them) that pass the request's attribute filter and lie in its viewport. A filter
/// that requires an attribute's value reads the vehicles of that value from an index.
enum DeliveryVehicleListing {
    /// The request's filter: comparisons of `attributes.KEY` only, as Google's documents say.
    static func filter(of request: ListDeliveryVehiclesRequest) throws(InvalidArgument) -> ListFilter? {
        try ListFilter.parse(request.filter) { field in
            field.hasPrefix("attributes.") && field.count > "attributes.".count
                ? nil
                : "delivery vehicles are filtered by their attributes only (attributes.KEY = \"value\")"
        }
    }

    /// Refuses a viewport without both corners or with a corner off the earth.
    static func validate(_ request: ListDeliveryVehiclesRequest) throws(InvalidArgument) {
        guard request.pageSize >= 0 else {
            throw InvalidArgument("pageSize is \(request.pageSize); it must not be negative")
        }
        guard request.hasViewport else { return }
        guard request.viewport.hasLow, request.viewport.hasHigh else {
            throw InvalidArgument("viewport needs both low and high")
        }
        try request.viewport.low.validate(field: "viewport.low")
        try request.viewport.high.validate(field: "viewport.high")
    }

    /// The page the validated `request` asks for, with `filter` (its parsed filter), and the
    /// number of vehicles that pass on every page.
    static func page(_ request: ListDeliveryVehiclesRequest, filter: ListFilter?, in deliveries: SavedDeliveries)
        throws(InvalidArgument) -> ListDeliveryVehiclesResponse
    {
        let required = filter.map { filter in filter.requiredFields.filter { $0.hasPrefix("attributes.") } } ?? []
        let candidates = filter?.narrowestIDs(in: deliveries.vehicleIndex, fields: required) ?? deliveries.vehicleIDs
        let page = try Pages.page(
            of: candidates, size: Int(request.pageSize), token: request.pageToken,
            everyCandidatePasses: !request.hasViewport
                && (filter == nil || filter?.isSingleEquality(on: required) == true)
        ) { id -> DeliveryVehicle? in
            guard let vehicle = deliveries.vehicles[id] else { return nil }
            if request.hasViewport {
                guard vehicle.hasLastLocation, request.viewport.contains(vehicle.lastLocation.location) else {
                    return nil
                }
            }
            guard
                filter?.matches({ field in
                    vehicle.attributes.first { "attributes.\($0.key)" == field }.map(\.filterText)
                }) ?? true
            else { return nil }
            return vehicle.listed
        }
        return .with { response in
            response.deliveryVehicles = page.items
            response.nextPageToken = page.nextPageToken
            response.totalSize = page.totalSize
        }
    }
}
