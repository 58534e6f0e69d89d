/// The private claims of a Fleet Engine token: the `authorization` object, which names the
/// resources the token may act on. `"*"` matches every id.
public struct AuthorizationClaims: Sendable, Hashable, Codable {
    /// The vehicle a Driver SDK token may act on (`vehicleid`).
    public var vehicleID: String?
    /// The trip a Consumer SDK token may read (`tripid`).
    public var tripID: String?
    /// The delivery vehicle a delivery driver token may act on (`deliveryvehicleid`).
    public var deliveryVehicleID: String?
    /// The task a token may act on (`taskid`).
    public var taskID: String?
    /// The tasks a BatchCreateTasks token may create (`taskids`).
    public var taskIDs: [String]?
    /// The shipment tracking id a delivery consumer token may read (`trackingid`).
    public var trackingID: String?

    enum CodingKeys: String, CodingKey {
        case vehicleID = "vehicleid"
        case tripID = "tripid"
        case deliveryVehicleID = "deliveryvehicleid"
        case taskID = "taskid"
        case taskIDs = "taskids"
        case trackingID = "trackingid"
    }

    /// Creates claims naming the given resources; `nil` leaves a claim out.
    public init(
        vehicleID: String? = nil,
        tripID: String? = nil,
        deliveryVehicleID: String? = nil,
        taskID: String? = nil,
        taskIDs: [String]? = nil,
        trackingID: String? = nil
    ) {
        self.vehicleID = vehicleID
        self.tripID = tripID
        self.deliveryVehicleID = deliveryVehicleID
        self.taskID = taskID
        self.taskIDs = taskIDs
        self.trackingID = trackingID
    }

    /// Every id the claims carry, with its JSON claim name, in a stable order.
    public var namedIDs: [(claim: String, id: String)] {
        var ids: [(String, String)] = []
        if let vehicleID { ids.append((CodingKeys.vehicleID.rawValue, vehicleID)) }
        if let tripID { ids.append((CodingKeys.tripID.rawValue, tripID)) }
        if let deliveryVehicleID { ids.append((CodingKeys.deliveryVehicleID.rawValue, deliveryVehicleID)) }
        if let taskID { ids.append((CodingKeys.taskID.rawValue, taskID)) }
        for id in taskIDs ?? [] { ids.append((CodingKeys.taskIDs.rawValue, id)) }
        if let trackingID { ids.append((CodingKeys.trackingID.rawValue, trackingID)) }
        return ids
    }

    /// Whether any claim is the wildcard `"*"`.
    public var containsWildcard: Bool {
        namedIDs.contains { $0.id == FleetEngineIdentifier.wildcard }
    }

    /// Whether no claim is set at all.
    public var isEmpty: Bool {
        namedIDs.isEmpty
    }

    /// Whether `claimed` (one of these claims' values) covers `id`: equal, or the wildcard.
    public static func value(_ claimed: String?, covers id: String) -> Bool {
        guard let claimed else { return false }
        return claimed == FleetEngineIdentifier.wildcard || claimed == id
    }
}
