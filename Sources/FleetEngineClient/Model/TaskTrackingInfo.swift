import Foundation

/// What a consumer app may see of a shipment (`TaskTrackingInfo`): the task's state and
/// outcome, and while it is on its way, where the vehicle is and how far it has to go. Fleet
/// Engine shows or hides each vehicle field as the task's tracking view says.
public struct TaskTrackingInfo: Codable, Hashable, Sendable {
    /// A task's state (`Task.State`).
    public struct State: RawRepresentable, Codable, Hashable, Sendable {
        /// The proto enum name, e.g. `OPEN`.
        public var rawValue: String
        /// Wraps a proto enum name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Not yet done.
        public static let open = State(rawValue: "OPEN")
        /// Done (successfully or not; see the outcome); it changes no more.
        public static let closed = State(rawValue: "CLOSED")
    }

    /// `providers/{provider}/taskTrackingInfo/{trackingId}`.
    public var name: String?
    /// The tracking id.
    public var trackingId: String?
    /// The task's state.
    public var state: State?
    /// `SUCCEEDED` or `FAILED` once the outcome is known.
    public var taskOutcome: String?
    /// Where the vehicle is, when shown.
    public var vehicleLocation: VehicleLocation?
    /// The stops left up to and including the shipment's, when shown.
    public var remainingStopCount: Int?
    /// How far the vehicle has to drive, when shown.
    public var remainingDrivingDistanceMeters: Int?
    /// When the vehicle is expected at the shipment's stop, when shown.
    public var estimatedArrivalTime: Date?
}
