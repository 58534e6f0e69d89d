/// A task of a delivery fleet (`maps.fleetengine.delivery.v1.Task`, named so that it is never
/// taken for Swift's `Task`), with the fields a delivery backend sets and reads. Fields not
/// modelled here are ignored.
public struct DeliveryTask: Codable, Hashable, Sendable {
    /// `providers/{provider}/tasks/{id}` (set by the server).
    public var name: String?
    /// `PICKUP`, `DELIVERY`, `SCHEDULED_STOP` or `UNAVAILABLE`.
    public var type: String?
    /// `OPEN` or `CLOSED`.
    public var state: TaskTrackingInfo.State?
    /// The shipment the task is part of (PICKUP and DELIVERY tasks).
    public var trackingId: String?
    /// The delivery vehicle whose stops hold the task (set by the server).
    public var deliveryVehicleId: String?
    /// Where the task is carried out.
    public var plannedLocation: VehicleStop.Place?
    /// How long the task takes there, as proto3 JSON writes a duration (`"120s"`).
    public var taskDuration: String?
    /// `SUCCEEDED` or `FAILED`, once set.
    public var taskOutcome: String?

    /// A task with no field set: the body of an update, whose mask names what it sets.
    init() {}

    /// A new open task of `type` at `point`, taking `duration`, for a backend's create call.
    public init(type: String, at point: LatLng, duration: Duration, trackingID: String? = nil) {
        self.type = type
        self.state = .open
        self.trackingId = trackingID
        self.plannedLocation = VehicleStop.Place(point: point)
        self.taskDuration = "\(duration.components.seconds)s"
    }
}
