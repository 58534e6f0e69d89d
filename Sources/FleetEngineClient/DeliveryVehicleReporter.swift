import FleetTokenProvider

/// A delivery driver app's reports to Fleet Engine: its locations, by the same rules as
/// ``VehicleReporter`` (one request in flight, the newest unsent location wins, backoff on
/// transient failures, a 401 invalidates the token once), and, for a trusted driver, its
/// progress through its stops.
///
/// ```swift
/// let reporter = DeliveryVehicleReporter(deliveryVehicleID: "van-1", client: client)
/// await reporter.report(VehicleLocation(location: here))
/// try await reporter.arrived()      // the next stop: ARRIVED
/// try await reporter.completed()    // it leaves the list, and its tasks close
/// ```
///
/// Tokens come from the client's provider with a `deliveryVehicleID` context. Google's IAM lets
/// an untrusted driver update only the location: its stop progress is refused (403,
/// ``FleetEngineError/refused(httpStatus:status:message:retryAfter:)``) and reported by its
/// backend instead.
public struct DeliveryVehicleReporter: Sendable {
    /// The delivery vehicle reported on.
    public let deliveryVehicleID: String
    private let locations: VehicleReporter
    private let client: FleetEngineClient

    /// Creates a reporter for `deliveryVehicleID` (see ``VehicleReporter/init(vehicleID:client:retryPolicy:eventBuffering:)``
    /// for the location rules and defaults).
    public init(
        deliveryVehicleID: String,
        client: FleetEngineClient,
        retryPolicy: RetryPolicy = .locationReporting,
        eventBuffering: AsyncStream<ReporterEvent>.Continuation.BufferingPolicy = .bufferingNewest(4096)
    ) {
        self.deliveryVehicleID = deliveryVehicleID
        self.client = client
        self.locations = VehicleReporter(
            target: .deliveryVehicle(deliveryVehicleID), client: client, retryPolicy: retryPolicy,
            eventBuffering: eventBuffering)
    }

    /// What happened to each location, in order; finishes after ``finish()`` or a stop.
    public var events: AsyncStream<ReporterEvent> { locations.events }

    /// Why location reporting stopped, `nil` while it runs.
    public var stopReason: FleetEngineError? {
        get async { await locations.stopReason }
    }

    /// Queues `location`, superseding an unsent older one; returns at once.
    public func report(_ location: VehicleLocation) async {
        await locations.report(location)
    }

    /// Stops taking locations, waits for the last one, and finishes ``events``.
    public func finish() async {
        await locations.finish()
    }

    /// The vehicle is on its way to its next stop: that stop becomes ENROUTE.
    @discardableResult
    public func enroute() async throws -> DeliveryVehicle {
        try await changeStops { stops in stops[0].state = .enroute }
    }

    /// The vehicle is at its next stop: that stop becomes ARRIVED.
    @discardableResult
    public func arrived() async throws -> DeliveryVehicle {
        try await changeStops { stops in stops[0].state = .arrived }
    }

    /// The vehicle is done at its next stop: the stop leaves the list, which closes its tasks
    /// (their outcomes are the backend's to set).
    @discardableResult
    public func completed() async throws -> DeliveryVehicle {
        try await changeStops { stops in stops.removeFirst() }
    }

    /// Reads the vehicle's stops, changes them with `change` (given at least one stop), and
    /// sends them back whole, as Fleet Engine takes them.
    private func changeStops(_ change: (inout [VehicleStop]) -> Void) async throws -> DeliveryVehicle {
        var stops = (try await client.deliveryVehicle(deliveryVehicleID).remainingVehicleJourneySegments ?? []).map(
            \.stop)
        guard !stops.isEmpty else {
            throw FleetEngineError.invalidRequest("delivery vehicle '\(deliveryVehicleID)' has no stops left")
        }
        change(&stops)
        return try await client.updateStops(stops, ofDeliveryVehicle: deliveryVehicleID)
    }
}
