import FleetEngineProtos
import Foundation
import SwiftProtobuf

/// GetTaskTrackingInfo's answer: what a consumer may see of the task a tracking id names.
///
/// The task's own facts (state, outcome, planned place, time window, attributes) are always
/// shown. While the task is open and on its vehicle's stops, the engine adds the vehicle's
/// place, the stops left until the task's stop, the distance and route there and the times of
/// arrival and completion, each shown or hidden as the task's `taskTrackingViewConfig` says
/// (an option not set shows its field). The engine has no road network: the route is the
/// straight lines from the vehicle through each stop, driven at ``assumedSpeedMetersPerSecond``,
/// and each earlier stop takes its tasks' durations. Nothing of the vehicle is shown once the
/// task is closed.
enum TrackingView {
    /// The speed the engine assumes for its estimates: 30 km/h, a city delivery's pace.
    static let assumedSpeedMetersPerSecond = 30_000.0 / 3600

    /// The task that answers for a tracking id among `tasks` (sorted by id), `vehicle` giving
    /// each task's vehicle: an open task on a vehicle's stops, nearest the front of them; else
    /// an open task no vehicle has; else the closed task with the latest outcome time. Ties go
    /// to the smaller id.
    static func answeringTask(
        among tasks: [(id: String, task: DeliveryTask)], vehicle: (String) -> DeliveryVehicle?
    ) -> (id: String, task: DeliveryTask)? {
        func rank(_ task: DeliveryTask, id: String) -> (Int, Double) {
            if task.state == .open, let vehicleID = task.assignedVehicleID,
                let stop = vehicle(vehicleID)?.stopIndex(ofTask: id)
            {
                return (0, Double(stop))
            }
            if task.state == .open { return (1, 0) }
            return (2, -(task.hasTaskOutcomeTime ? task.taskOutcomeTime.timeIntervalSince1970 : 0))
        }
        return tasks.min { rank($0.task, id: $0.id) < rank($1.task, id: $1.id) }
    }

    /// The tracking info of `task` (task `id`, tracked as `trackingID` of `provider`) at `now`,
    /// its vehicle being `vehicle`.
    static func info(
        of task: DeliveryTask, id: String, trackingID: String, provider: String, vehicle: DeliveryVehicle?,
        tasks: (String) -> DeliveryTask?, now: Date
    ) -> TaskTrackingInfo {
        var info = TaskTrackingInfo.with { info in
            info.name = ResourceName.taskTrackingInfo(provider: provider, trackingID: trackingID)
            info.trackingID = trackingID
            info.state = task.state
            info.taskOutcome = task.taskOutcome
            if task.hasTaskOutcomeTime { info.taskOutcomeTime = task.taskOutcomeTime }
            if task.hasPlannedLocation { info.plannedLocation = task.plannedLocation }
            if task.hasTargetTimeWindow { info.targetTimeWindow = task.targetTimeWindow }
            info.attributes = task.attributes
        }
        guard task.state == .open, let vehicle, vehicle.hasLastLocation, let stop = vehicle.stopIndex(ofTask: id) else {
            return info
        }
        let stops = vehicle.remainingVehicleJourneySegments.prefix(stop + 1).map(\.stop)
        let route = [vehicle.lastLocation.location] + stops.map(\.plannedLocation.point)
        let meters = zip(route, route.dropFirst()).reduce(0) { $0 + $1.0.distance(to: $1.1) }
        let workBefore = stops.dropLast().flatMap(\.tasks).reduce(0.0) { total, entry in
            total + (tasks(entry.taskID).map { TimeInterval($0.taskDuration.seconds) } ?? 0)
        }
        let untilArrival = meters / assumedSpeedMetersPerSecond + workBefore
        let arrival = now.addingTimeInterval(untilArrival)
        let config = task.taskTrackingViewConfig
        let visibility = Visibility(remainingStops: stops.count, untilArrival: untilArrival, remainingMeters: meters)
        if visibility.shows(config.hasRoutePolylinePointsVisibility ? config.routePolylinePointsVisibility : nil) {
            info.routePolylinePoints = route
        }
        if visibility.shows(config.hasEstimatedArrivalTimeVisibility ? config.estimatedArrivalTimeVisibility : nil),
            let time = Self.timestamp(arrival)
        {
            info.estimatedArrivalTime = time
        }
        let completion = arrival.addingTimeInterval(TimeInterval(task.taskDuration.seconds))
        if visibility.shows(
            config.hasEstimatedTaskCompletionTimeVisibility ? config.estimatedTaskCompletionTimeVisibility : nil),
            let time = Self.timestamp(completion)
        {
            info.estimatedTaskCompletionTime = time
        }
        if visibility.shows(
            config.hasRemainingDrivingDistanceVisibility ? config.remainingDrivingDistanceVisibility : nil)
        {
            info.remainingDrivingDistanceMeters = .init(Int32(clamping: Int(meters.rounded())))
        }
        if visibility.shows(config.hasRemainingStopCountVisibility ? config.remainingStopCountVisibility : nil) {
            info.remainingStopCount = .init(Int32(stops.count))
        }
        if visibility.shows(config.hasVehicleLocationVisibility ? config.vehicleLocationVisibility : nil) {
            info.vehicleLocation = vehicle.lastLocation
        }
        return info
    }

    /// The last instant proto3 can write (9999-12-31T23:59:59Z).
    private static let latestTimestamp = Date(timeIntervalSince1970: 253_402_300_799)

    /// `date` as a timestamp, or `nil` past the year 9999 (tasks may take centuries; their
    /// estimates are then left out rather than written wrong).
    private static func timestamp(_ date: Date) -> Google_Protobuf_Timestamp? {
        date <= latestTimestamp ? Google_Protobuf_Timestamp(date: date) : nil
    }

    /// Where the vehicle stands towards the task's stop, which thresholds compare.
    private struct Visibility {
        let remainingStops: Int
        let untilArrival: TimeInterval
        let remainingMeters: Double

        /// Whether `option` (`nil`: not set, shown) shows its field.
        func shows(_ option: Maps_Fleetengine_Delivery_V1_TaskTrackingViewConfig.VisibilityOption?) -> Bool {
            switch option?.visibilityOption {
            case nil: true
            case .always: true
            case .never: false
            case .remainingStopCountThreshold(let threshold): remainingStops <= Int(threshold)
            case .durationUntilEstimatedArrivalTimeThreshold(let threshold):
                untilArrival <= TimeInterval(threshold.seconds)
            case .remainingDrivingDistanceMetersThreshold(let threshold): remainingMeters <= Double(threshold)
            }
        }
    }
}

extension DeliveryVehicle {
    /// The position (0: the next) of the stop holding task `taskID`, or `nil`.
    func stopIndex(ofTask taskID: String) -> Int? {
        remainingVehicleJourneySegments.firstIndex { segment in segment.stop.tasks.contains { $0.taskID == taskID } }
    }
}
