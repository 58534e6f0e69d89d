/// A delivery vehicle (`DeliveryVehicle`), with the fields a delivery driver app and its
/// backend use: where it is and its remaining stops. Fields not modelled here are ignored.
public struct DeliveryVehicle: Codable, Hashable, Sendable {
    /// `providers/{provider}/deliveryVehicles/{id}` (set by the server).
    public var name: String?
    /// The last location the driver app reported (the same fields as a ``VehicleLocation``).
    public var lastLocation: VehicleLocation?
    /// The stops left, in order; the first is the next.
    public var remainingVehicleJourneySegments: [JourneySegment]?

    /// Creates a delivery vehicle at `lastLocation`, for a backend's create call.
    public init(lastLocation: VehicleLocation? = nil) {
        self.lastLocation = lastLocation
    }
}

/// One leg of a delivery vehicle's remaining route, ending at a stop (`VehicleJourneySegment`).
public struct JourneySegment: Codable, Hashable, Sendable {
    /// The stop the leg ends at.
    public var stop: VehicleStop

    /// A leg to `stop`.
    public init(stop: VehicleStop) {
        self.stop = stop
    }
}

/// A place where a delivery vehicle carries out tasks (`VehicleStop`).
public struct VehicleStop: Codable, Hashable, Sendable {
    /// How far the vehicle has got with a stop (`VehicleStop.State`): it moves NEW → ENROUTE →
    /// ARRIVED, and a stop is completed by leaving the list.
    public struct State: RawRepresentable, Codable, Hashable, Sendable {
        /// The proto enum name, e.g. `ENROUTE`.
        public var rawValue: String
        /// Wraps a proto enum name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Planned, not yet driven to.
        public static let new = State(rawValue: "NEW")
        /// The vehicle is on its way.
        public static let enroute = State(rawValue: "ENROUTE")
        /// The vehicle is there.
        public static let arrived = State(rawValue: "ARRIVED")
    }

    /// The stop's place, as `LocationInfo`.
    public struct Place: Codable, Hashable, Sendable {
        /// The point.
        public var point: LatLng
        /// A place at `point`.
        public init(point: LatLng) { self.point = point }
    }

    /// One task carried out at the stop (`VehicleStop.TaskInfo`).
    public struct TaskEntry: Codable, Hashable, Sendable {
        /// The task's id.
        public var taskId: String
        /// An entry for task `taskId`.
        public init(taskId: String) { self.taskId = taskId }
    }

    /// Where the stop is.
    public var plannedLocation: Place
    /// The tasks carried out there.
    public var tasks: [TaskEntry]
    /// How far the vehicle has got with it.
    public var state: State

    /// A stop at `point` for the tasks `taskIDs`, in `state`.
    public init(at point: LatLng, taskIDs: [String], state: State = .new) {
        self.plannedLocation = Place(point: point)
        self.tasks = taskIDs.map(TaskEntry.init(taskId:))
        self.state = state
    }
}
