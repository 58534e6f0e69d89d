import FleetTokenProvider

/// Fleet Engine's delivery calls (`deliveryVehicles`, `taskTrackingInfo`), each with the token
/// for its delivery vehicle or tracking id.
extension FleetEngineClient {
    /// Creates delivery vehicle `id` (needs a delivery server token).
    public func createDeliveryVehicle(_ vehicle: DeliveryVehicle, id: String) async throws -> DeliveryVehicle {
        try await call(.post, "deliveryVehicles", query: ["deliveryVehicleId": id], body: vehicle, context: AuthorizationContext(deliveryVehicleID: id))
    }

    /// Reads delivery vehicle `id`, with its stops.
    public func deliveryVehicle(_ id: String) async throws -> DeliveryVehicle {
        try await call(.get, "deliveryVehicles/\(id)", body: DeliveryVehicle?.none, context: AuthorizationContext(deliveryVehicleID: id))
    }

    /// Sets delivery vehicle `id`'s `lastLocation` (what a delivery driver app sends, trusted or
    /// not), returning the vehicle as stored.
    public func updateLocation(_ location: VehicleLocation, ofDeliveryVehicle id: String) async throws -> DeliveryVehicle {
        try await call(
            .patch, "deliveryVehicles/\(id)", query: ["updateMask": "lastLocation"], body: DeliveryVehicle(lastLocation: location),
            context: AuthorizationContext(deliveryVehicleID: id))
    }

    /// Replaces delivery vehicle `id`'s stops (a trusted driver's or a backend's call): tasks the
    /// list names are assigned to the vehicle, and tasks it no longer names close.
    public func updateStops(_ stops: [VehicleStop], ofDeliveryVehicle id: String) async throws -> DeliveryVehicle {
        var update = DeliveryVehicle()
        update.remainingVehicleJourneySegments = stops.map(JourneySegment.init(stop:))
        return try await call(
            .patch, "deliveryVehicles/\(id)", query: ["updateMask": "remainingVehicleJourneySegments"], body: update,
            context: AuthorizationContext(deliveryVehicleID: id))
    }

    /// Reads what a consumer may see of the shipment `trackingID`.
    public func taskTrackingInfo(_ trackingID: String) async throws -> TaskTrackingInfo {
        try await call(.get, "taskTrackingInfo/\(trackingID)", body: TaskTrackingInfo?.none, context: AuthorizationContext(trackingID: trackingID))
    }
}
