import FleetTokenProvider

/// Fleet Engine's delivery calls (`deliveryVehicles`, `taskTrackingInfo`), each with the token
/// for its delivery vehicle or tracking id.
extension FleetEngineClient {
    /// Creates delivery vehicle `id` (needs a delivery server token).
    public func createDeliveryVehicle(_ vehicle: DeliveryVehicle, id: String) async throws -> DeliveryVehicle {
        try await call(
            .post, "deliveryVehicles", query: ["deliveryVehicleId": id], body: vehicle,
            context: AuthorizationContext(deliveryVehicleID: id))
    }

    /// Reads delivery vehicle `id`, with its stops.
    public func deliveryVehicle(_ id: String) async throws -> DeliveryVehicle {
        try await call(
            .get, "deliveryVehicles/\(id)", body: DeliveryVehicle?.none,
            context: AuthorizationContext(deliveryVehicleID: id))
    }

    /// Sets delivery vehicle `id`'s `lastLocation` (what a delivery driver app sends, trusted or
    /// not), returning the vehicle as stored.
    public func updateLocation(_ location: VehicleLocation, ofDeliveryVehicle id: String) async throws
        -> DeliveryVehicle
    {
        try await call(
            .patch, "deliveryVehicles/\(id)", query: ["updateMask": "lastLocation"],
            body: DeliveryVehicle(lastLocation: location),
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

    /// Creates task `id` (needs a delivery server token, or a trusted driver's for the task).
    public func createTask(_ task: DeliveryTask, id: String) async throws -> DeliveryTask {
        try await call(.post, "tasks", query: ["taskId": id], body: task, context: AuthorizationContext(taskID: id))
    }

    /// Reads task `id` (needs a delivery server or fleet reader token).
    public func task(_ id: String) async throws -> DeliveryTask {
        try await call(.get, "tasks/\(id)", body: DeliveryTask?.none, context: AuthorizationContext(taskID: id))
    }

    /// Sets task `id`'s outcome, `SUCCEEDED` or `FAILED` (once; Fleet Engine places it at the
    /// vehicle's last location).
    public func setOutcome(_ outcome: String, ofTask id: String) async throws -> DeliveryTask {
        var update = DeliveryTask()
        update.taskOutcome = outcome
        return try await call(
            .patch, "tasks/\(id)", query: ["updateMask": "taskOutcome"], body: update,
            context: AuthorizationContext(taskID: id))
    }

    /// Reads what a consumer may see of the shipment `trackingID`.
    public func taskTrackingInfo(_ trackingID: String) async throws -> TaskTrackingInfo {
        try await call(
            .get, "taskTrackingInfo/\(trackingID)", body: TaskTrackingInfo?.none,
            context: AuthorizationContext(trackingID: trackingID))
    }
}
