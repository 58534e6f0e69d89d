/// What a token is asked for: the vehicle, trip, delivery vehicle, task or tracking id that
/// the token server scopes it to.
///
/// The Swift counterpart of `GMTDAuthorizationContext` (driver apps, keyed by vehicle id) and
/// `GMTCAuthorizationContext` (consumer apps, keyed by trip id). Two contexts that differ in
/// any id are different cache entries, so a driver who switches vehicles gets a new token.
public struct AuthorizationContext: Hashable, Sendable {
    /// The vehicle id (`vehicleid` claim), for driver tokens.
    public var vehicleID: String?
    /// The trip id (`tripid` claim), for consumer tokens.
    public var tripID: String?
    /// The delivery vehicle id (`deliveryvehicleid` claim), for delivery driver tokens.
    public var deliveryVehicleID: String?
    /// The task id (`taskid` claim), for delivery driver and delivery consumer tokens.
    public var taskID: String?
    /// The tracking id (`trackingid` claim), for delivery consumer tokens.
    public var trackingID: String?

    /// Creates a context from the ids a token is scoped to; leave out the ones that do not apply.
    public init(
        vehicleID: String? = nil,
        tripID: String? = nil,
        deliveryVehicleID: String? = nil,
        taskID: String? = nil,
        trackingID: String? = nil
    ) {
        self.vehicleID = vehicleID
        self.tripID = tripID
        self.deliveryVehicleID = deliveryVehicleID
        self.taskID = taskID
        self.trackingID = trackingID
    }
}

extension AuthorizationContext {
    /// The names a ``TokenURLTemplate`` accepts between braces, in a fixed order.
    static let placeholderNames = AuthorizationContext().namedValues.map(\.name)

    /// Every id under its URL-template placeholder name (`vehicleId`, `tripId`, …).
    var namedValues: [(name: String, value: String?)] {
        [
            ("vehicleId", vehicleID),
            ("tripId", tripID),
            ("deliveryVehicleId", deliveryVehicleID),
            ("taskId", taskID),
            ("trackingId", trackingID),
        ]
    }

    /// The id a URL-template placeholder stands for, `nil` when this context has none.
    func value(forPlaceholder name: String) -> String? {
        namedValues.first { $0.name == name }?.value ?? nil
    }
}

extension AuthorizationContext: CustomStringConvertible {
    /// The ids that are set, e.g. `vehicleId=V1`, or `(empty)`; ids are not secrets.
    public var description: String {
        let parts = namedValues.compactMap { name, value in value.map { "\(name)=\($0)" } }
        return parts.isEmpty ? "(empty)" : parts.joined(separator: " ")
    }
}
