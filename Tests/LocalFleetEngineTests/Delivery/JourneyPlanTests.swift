import FleetAuthServerHTTP
import FleetEngineProtos
import Testing

@testable import LocalFleetEngine

/// What a new stop list does to a delivery vehicle's tasks (``JourneyPlan``).
@Suite("Delivery journey plan")
struct JourneyPlanTests {
    static func stop(_ state: VehicleStop.State, _ taskIDs: String...) -> VehicleJourneySegment {
        .with { segment in
            segment.stop = .with { stop in
                stop.state = state
                stop.plannedLocation = .with {
                    $0.point = .with {
                        $0.latitude = 35.6; $0.longitude = 139.7
                    }
                }
                stop.tasks = taskIDs.map { id in .with { $0.taskID = id } }
            }
        }
    }

    static func task(_ state: DeliveryTask.State = .open, vehicle: String = "") -> DeliveryTask {
        .with {
            $0.state = state; $0.deliveryVehicleID = vehicle
        }
    }

    func plan(
        from old: [VehicleJourneySegment], to new: [VehicleJourneySegment], tasks: [String: DeliveryTask]
    ) throws(APIError) -> JourneyPlan {
        try JourneyPlan(vehicleID: "dv", from: old, to: new, task: { tasks[$0] })
    }

    @Test func namedTasksAreAssignedAndTasksNoLongerNamedClose() throws {
        let tasks = ["a": Self.task(vehicle: "dv"), "b": Self.task(vehicle: "dv"), "c": Self.task()]
        let result = try plan(
            from: [Self.stop(.arrived, "a"), Self.stop(.new, "b")], to: [Self.stop(.enroute, "b", "c")], tasks: tasks)
        #expect(result.assigned == ["c"])
        #expect(result.closed == ["a"])
    }

    @Test func anEmptyListClosesEveryTask() throws {
        let result = try plan(
            from: [Self.stop(.enroute, "a", "b")], to: [],
            tasks: ["a": Self.task(vehicle: "dv"), "b": Self.task(vehicle: "dv")])
        #expect(result.assigned.isEmpty)
        #expect(result.closed == ["a", "b"])
    }

    @Test func aTaskOfAnotherVehicleOrClosedOrMissingOrNamedTwiceIsRefused() {
        func refusal(_ tasks: [String: DeliveryTask], _ new: [VehicleJourneySegment]) -> APIError.Code? {
            do {
                _ = try plan(from: [], to: new, tasks: tasks)
                return nil
            } catch {
                return error.code
            }
        }
        #expect(refusal(["a": Self.task(vehicle: "other")], [Self.stop(.new, "a")]) == .failedPrecondition)
        #expect(refusal(["a": Self.task(.closed)], [Self.stop(.new, "a")]) == .failedPrecondition)
        #expect(refusal([:], [Self.stop(.new, "a")]) == .invalidArgument)
        #expect(refusal(["a": Self.task()], [Self.stop(.new, "a"), Self.stop(.new, "a")]) == .invalidArgument)
        #expect(refusal(["a": Self.task()], [Self.stop(.unspecified, "a")]) == .invalidArgument)
        #expect(refusal([:], [Self.stop(.new)]) == .invalidArgument)
        var noPlace = Self.stop(.new, "a")
        noPlace.stop.clearPlannedLocation()
        #expect(refusal(["a": Self.task()], [noPlace]) == .invalidArgument)
    }

    @Test func aStopMovesForwardOnly() throws {
        let tasks = ["a": Self.task(vehicle: "dv")]
        #expect(throws: APIError.self) {
            try plan(from: [Self.stop(.arrived, "a")], to: [Self.stop(.enroute, "a")], tasks: tasks)
        }
        #expect(throws: APIError.self) {
            try plan(from: [Self.stop(.enroute, "a")], to: [Self.stop(.new, "a")], tasks: tasks)
        }
        let forward = try plan(from: [Self.stop(.new, "a")], to: [Self.stop(.arrived, "a")], tasks: tasks)
        #expect(forward.assigned.isEmpty && forward.closed.isEmpty)
    }
}
