import FleetAuthServerHTTP
import FleetEngineProtos
import Testing

@testable import LocalFleetEngine

/// How a task's state and outcome may change (``TaskLifecycle``).
@Suite("Delivery task lifecycle")
struct TaskLifecycleTests {
    static let vehicleLocation = DeliveryVehicleLocation.with {
        $0.location = .with {
            $0.latitude = 35.6; $0.longitude = 139.7
        }
    }

    func update(
        _ current: DeliveryTask, _ fields: Set<TaskField>, location: DeliveryVehicleLocation? = vehicleLocation,
        _ change: (inout DeliveryTask) -> Void
    ) throws(APIError) -> DeliveryTask {
        var update = DeliveryTask()
        change(&update)
        return try TaskLifecycle.update(current, id: "t", with: update, fields: fields, vehicleLocation: location)
    }

    @Test func anUnassignedTaskClosesAndNeverReopens() throws {
        let closed = try update(.with { $0.state = .open }, [.state]) { $0.state = .closed }
        #expect(closed.state == .closed)
        #expect(throws: APIError.failedPrecondition("task 't' is closed, and a closed task never reopens")) {
            try update(closed, [.state]) { $0.state = .open }
        }
    }

    @Test func anAssignedTaskClosesOnlyByLeavingItsVehiclesStops() {
        let assigned = DeliveryTask.with {
            $0.state = .open; $0.deliveryVehicleID = "dv"
        }
        #expect(throws: APIError.self) { try update(assigned, [.state]) { $0.state = .closed } }
    }

    @Test func theOutcomeIsSetOnceAndPlacedAtTheVehicleUnlessGiven() throws {
        let open = DeliveryTask.with {
            $0.state = .open; $0.deliveryVehicleID = "dv"
        }
        let succeeded = try update(open, [.taskOutcome]) { $0.taskOutcome = .succeeded }
        #expect(succeeded.taskOutcomeLocation.point == Self.vehicleLocation.location)
        #expect(succeeded.taskOutcomeLocationSource == .lastVehicleLocation)
        #expect(try update(succeeded, [.taskOutcome]) { $0.taskOutcome = .succeeded }.taskOutcome == .succeeded)
        #expect(throws: APIError.self) { try update(succeeded, [.taskOutcome]) { $0.taskOutcome = .failed } }

        let given = try update(open, [.taskOutcome, .taskOutcomeLocation]) { task in
            task.taskOutcome = .failed
            task.taskOutcomeLocation = .with {
                $0.point = .with {
                    $0.latitude = 1; $0.longitude = 2
                }
            }
        }
        #expect(given.taskOutcomeLocationSource == .provider)
        #expect(given.taskOutcomeLocation.point.latitude == 1)
        let nowhere = try update(open, [.taskOutcome], location: nil) { $0.taskOutcome = .failed }
        #expect(!nowhere.hasTaskOutcomeLocation && nowhere.taskOutcomeLocationSource == .unspecified)
    }
}
