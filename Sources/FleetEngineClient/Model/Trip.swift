/// A trip (`Trip`), with the fields a consumer app follows and a driver app updates.
/// Fields Fleet Engine sends that are not modelled here are ignored.
public struct Trip: Codable, Hashable, Sendable {
    /// Where a trip stands (`TripStatus`).
    public struct Status: RawRepresentable, Codable, Hashable, Sendable {
        /// The proto enum name, e.g. `ENROUTE_TO_PICKUP`.
        public var rawValue: String
        /// Wraps a proto enum name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Created, no vehicle on the way yet.
        public static let new = Status(rawValue: "NEW")
        /// The vehicle is on its way to the pickup point.
        public static let enrouteToPickup = Status(rawValue: "ENROUTE_TO_PICKUP")
        /// The vehicle is at the pickup point.
        public static let arrivedAtPickup = Status(rawValue: "ARRIVED_AT_PICKUP")
        /// The vehicle is on its way to the drop-off point.
        public static let enrouteToDropoff = Status(rawValue: "ENROUTE_TO_DROPOFF")
        /// The trip is over: the passenger was dropped off.
        public static let complete = Status(rawValue: "COMPLETE")
        /// The trip is over: it was cancelled.
        public static let canceled = Status(rawValue: "CANCELED")

        /// Whether the trip is over (complete or cancelled); it changes no more.
        public var isFinal: Bool { self == .complete || self == .canceled }
    }

    /// A pickup or drop-off point (`TerminalLocation`).
    public struct Terminal: Codable, Hashable, Sendable {
        /// The point.
        public var point: LatLng
        /// Wraps a point.
        public init(point: LatLng) { self.point = point }
    }

    /// `providers/{provider}/trips/{tripId}` (set by the server).
    public var name: String?
    /// The vehicle assigned to the trip.
    public var vehicleId: String?
    /// Where the trip stands.
    public var tripStatus: Status?
    /// `EXCLUSIVE` or `SHARED`.
    public var tripType: String?
    /// Where the passenger is picked up.
    public var pickupPoint: Terminal?
    /// Where the passenger is dropped off.
    public var dropoffPoint: Terminal?

    /// Creates a trip for ``FleetEngineClient/createTrip(_:id:)``.
    public init(
        vehicleId: String?, pickupPoint: Terminal?, dropoffPoint: Terminal? = nil, tripType: String? = "EXCLUSIVE"
    ) {
        self.vehicleId = vehicleId
        self.pickupPoint = pickupPoint
        self.dropoffPoint = dropoffPoint
        self.tripType = tripType
    }
}
