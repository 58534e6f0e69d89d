import FleetAuthServerHTTP

/// What a new `remaining_vehicle_journey_segments` list does to a delivery vehicle's tasks, by
/// Google's rules: the whole list is the vehicle's remaining stops, in order. A task it names
/// is assigned to the vehicle (a task belongs to one vehicle at a time, and a closed task never
/// reopens); a task the old list named and the new one does not is done, and closes (whatever
/// its stop's state was, as Google's guides say). A stop's state only moves forward,
/// NEW → ENROUTE → ARRIVED: a stop is the same stop in both lists when they share a task.
struct JourneyPlan {
    /// Tasks to assign to the vehicle (named by the new list, not yet assigned to it).
    let assigned: [String]
    /// Tasks to close (named by the old list only).
    let closed: [String]

    /// The plan for vehicle `vehicleID` moving from the stops `old` to the stops `new`, with
    /// `task` giving each task's latest version (`nil`: no such task).
    ///
    /// - Throws: 400 for a stop without a location, a state or tasks, a task named twice or
    ///   missing, a stop state going back; 400 `FAILED_PRECONDITION` for a closed task or one
    ///   assigned to another vehicle.
    init(
        vehicleID: String, from old: [VehicleJourneySegment], to new: [VehicleJourneySegment],
        task: (String) -> DeliveryTask?
    ) throws(APIError) {
        var oldStates: [String: VehicleStop.State] = [:]
        for segment in old {
            for info in segment.stop.tasks { oldStates[info.taskID] = segment.stop.state }
        }
        var named: Set<String> = []
        var assigned: [String] = []
        for (index, segment) in new.enumerated() {
            let stop = segment.stop
            let field = "remainingVehicleJourneySegments[\(index)].stop"
            guard segment.hasStop else { throw .invalidArgument("\(field) is required") }
            guard stop.hasPlannedLocation, stop.plannedLocation.hasPoint else {
                throw .invalidArgument("\(field).plannedLocation is required")
            }
            try Self.validate(stop.plannedLocation.point, "\(field).plannedLocation.point")
            guard stop.state != .unspecified else {
                throw .invalidArgument("\(field).state is required: NEW, ENROUTE or ARRIVED")
            }
            guard VehicleStop.State.allCases.contains(stop.state) else {
                throw .invalidArgument("\(field).state is not a stop state")
            }
            guard !stop.tasks.isEmpty else {
                throw .invalidArgument("\(field).tasks is required: a stop has at least one task")
            }
            for (taskIndex, info) in stop.tasks.enumerated() {
                let id = info.taskID
                guard !id.isEmpty else { throw .invalidArgument("\(field).tasks[\(taskIndex)].taskId is required") }
                guard named.insert(id).inserted else {
                    throw .invalidArgument("task '\(id)' is named twice in remainingVehicleJourneySegments")
                }
                guard let current = task(id) else {
                    throw .invalidArgument("\(field).tasks[\(taskIndex)] names task '\(id)', which does not exist")
                }
                if let owner = current.assignedVehicleID, owner != vehicleID {
                    throw .failedPrecondition(
                        "task '\(id)' is assigned to delivery vehicle '\(owner)'; a task belongs to one vehicle: close it there and create a new task"
                    )
                }
                guard current.state != .closed else {
                    throw .failedPrecondition("task '\(id)' is closed, and a closed task never reopens")
                }
                if current.assignedVehicleID == nil { assigned.append(id) }
            }
            let earlier = stop.tasks.compactMap { oldStates[$0.taskID] }.max { $0.rawValue < $1.rawValue }
            if let earlier, stop.state.rawValue < earlier.rawValue {
                throw .invalidArgument(
                    "\(field).state goes back from \(earlier) to \(stop.state); a stop moves NEW → ENROUTE → ARRIVED")
            }
        }
        self.assigned = assigned
        self.closed = old.flatMap { $0.stop.tasks.map(\.taskID) }.filter { !named.contains($0) }
    }

    private static func validate(_ point: LatLng, _ field: String) throws(APIError) {
        guard (-90...90).contains(point.latitude), (-180...180).contains(point.longitude) else {
            throw .invalidArgument("\(field) is outside the earth's coordinates (latitude -90…90, longitude -180…180)")
        }
    }
}

extension VehicleJourneySegment {
    /// The segment as the engine keeps it: the stop's location, state and task ids, without
    /// what Google fills in itself (distances, durations, paths, and each task's duration and
    /// time window, which ``DeliveryVehicle/presented(tasks:)`` adds from the tasks).
    var kept: VehicleJourneySegment {
        .with { segment in
            segment.stop = .with { stop in
                stop.plannedLocation = self.stop.plannedLocation
                stop.state = self.stop.state
                stop.tasks = self.stop.tasks.map { info in .with { $0.taskID = info.taskID } }
            }
        }
    }
}
