/// A vehicle of the fleet (`Vehicle`), with the fields a driver app and a fleet backend use.
/// Fields Fleet Engine sends that are not modelled here are ignored.
public struct Vehicle: Codable, Hashable, Sendable {
    /// Whether a vehicle takes trips (`VehicleState`).
    public struct State: RawRepresentable, Codable, Hashable, Sendable {
        /// The proto enum name, e.g. `ONLINE`.
        public var rawValue: String
        /// Wraps a proto enum name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Takes trips.
        public static let online = State(rawValue: "ONLINE")
        /// Takes no trips.
        public static let offline = State(rawValue: "OFFLINE")
    }

    /// The kind of vehicle (`VehicleType`), e.g. category `AUTO`.
    public struct Category: Codable, Hashable, Sendable {
        /// `AUTO`, `TAXI`, `TRUCK`, `TWO_WHEELER`, `BICYCLE` or `PEDESTRIAN`.
        public var category: String
        /// Names a category.
        public init(category: String) { self.category = category }
    }

    /// `providers/{provider}/vehicles/{vehicleId}` (set by the server).
    public var name: String?
    /// Whether the vehicle takes trips.
    public var vehicleState: State?
    /// The kinds of trip the vehicle takes, e.g. `EXCLUSIVE`.
    public var supportedTripTypes: [String]?
    /// The ids of the vehicle's unfinished trips (set by the server).
    public var currentTrips: [String]?
    /// The last location the driver app reported.
    public var lastLocation: VehicleLocation?
    /// How many passengers the vehicle carries.
    public var maximumCapacity: Int?
    /// The kind of vehicle.
    public var vehicleType: Category?

    /// Creates a vehicle for ``FleetEngineClient/createVehicle(_:id:)``.
    public init(
        vehicleState: State? = .online,
        supportedTripTypes: [String]? = ["EXCLUSIVE"],
        lastLocation: VehicleLocation? = nil,
        maximumCapacity: Int? = 4,
        vehicleType: Category? = Category(category: "AUTO")
    ) {
        self.vehicleState = vehicleState
        self.supportedTripTypes = supportedTripTypes
        self.lastLocation = lastLocation
        self.maximumCapacity = maximumCapacity
        self.vehicleType = vehicleType
    }
}
