import FleetEngineProtos
import Testing

@testable import LocalFleetEngine

/// ListTasks and ListDeliveryVehicles read page after page from indexes; whatever the filter,
/// the pages together are what a scan of every task (or vehicle) finds, in id order, and the
/// total counts them.
@Suite("Delivery listings")
struct TaskListingTests {
    static func randomDeliveries(tasks count: Int) -> (SavedDeliveries, [String: DeliveryTask]) {
        var random = SeededRandom(state: 7)
        var deliveries = SavedDeliveries(vehicles: [:], tasks: [:])
        var tasks: [String: DeliveryTask] = [:]
        for index in 0..<count {
            let id = "t\(Int.random(in: 0..<100_000, using: &random))-\(index)"
            let task = DeliveryTask.with { task in
                task.state = Bool.random(using: &random) ? .open : .closed
                task.type = [.pickup, .delivery][Int.random(in: 0..<2, using: &random)]
                task.trackingID = "ship-\(Int.random(in: 0..<20, using: &random))"
                task.deliveryVehicleID =
                    Int.random(in: 0..<4, using: &random) == 0 ? "" : "dv-\(Int.random(in: 0..<10, using: &random))"
                task.name = "providers/p/tasks/\(id)"
            }
            deliveries.publish(task: task, id: id)
            tasks[id] = task
        }
        // Moves and deletions after the first publication keep the indexes honest too.
        for id in tasks.keys.sorted().prefix(count / 10) {
            if Bool.random(using: &random) {
                deliveries.publish(task: nil, id: id)
                tasks[id] = nil
            } else {
                tasks[id]!.deliveryVehicleID = "dv-moved"
                tasks[id]!.trackingID = "ship-moved"
                deliveries.publish(task: tasks[id]!, id: id)
            }
        }
        return (deliveries, tasks)
    }

    @Test(arguments: [
        "", "delivery_vehicle_id = dv-3", "deliveryVehicleId = \"dv-moved\" AND state = OPEN",
        "tracking_id = ship-4 OR tracking_id = ship-5",
        "tracking_id = ship-moved", "state = CLOSED AND NOT type = PICKUP", "delivery_vehicle_id = \"\"",
        "tracking_id = nobody",
        "state = OPEN", "state = OPEN AND delivery_vehicle_id = dv-2", "NOT state = OPEN",
        "trackingId = ship-3 AND state = CLOSED",
    ])
    func pagesTogetherAreAScanInIdOrder(filterText: String) throws {
        let (deliveries, tasks) = Self.randomDeliveries(tasks: 2_000)
        var request = ListTasksRequest.with {
            $0.filter = filterText; $0.pageSize = 37
        }
        let filter = try TaskListing.filter(of: request)
        let expected = tasks.keys.sorted().filter { id in
            filter?.matches { TaskListing.value(of: $0, in: tasks[id]!) } ?? true
        }
        var listed: [String] = []
        repeat {
            let page = try TaskListing.page(request, filter: filter, in: deliveries)
            #expect(page.totalSize == Int64(expected.count))
            #expect(page.tasks.count <= 37)
            listed += page.tasks.map { String($0.name.split(separator: "/").last!) }
            request.pageToken = page.nextPageToken
        } while !request.pageToken.isEmpty
        #expect(listed == expected)
    }

    @Test func deliveryVehiclesPageByAttributeAndViewport() throws {
        var deliveries = SavedDeliveries(vehicles: [:], tasks: [:])
        for index in 0..<30 {
            deliveries.publish(
                vehicle: .with { vehicle in
                    vehicle.name = "providers/p/deliveryVehicles/dv-\(index)"
                    vehicle.attributes = [
                        .with {
                            $0.key = "zone"; $0.stringValue = index.isMultiple(of: 3) ? "north" : "south"
                        }
                    ]
                    vehicle.lastLocation = .with {
                        $0.location = .with {
                            $0.latitude = Double(index); $0.longitude = 179.5 + Double(index % 2) * -359
                        }
                    }
                    vehicle.remainingVehicleJourneySegments = [.with { $0.stop = .with { $0.state = .new } }]
                }, id: String(format: "dv-%02d", index))
        }
        var request = ListDeliveryVehiclesRequest.with { request in
            request.filter = "attributes.zone = north"
            request.pageSize = 4
            request.viewport = .with { viewport in
                viewport.low = .with {
                    $0.latitude = 0; $0.longitude = 170
                }
                viewport.high = .with {
                    $0.latitude = 20; $0.longitude = -170
                }
            }
        }
        let filter = try DeliveryVehicleListing.filter(of: request)
        var listed: [String] = []
        repeat {
            let page = try DeliveryVehicleListing.page(request, filter: filter, in: deliveries)
            #expect(page.totalSize == 7)
            #expect(page.deliveryVehicles.allSatisfy { $0.remainingVehicleJourneySegments.isEmpty })
            listed += page.deliveryVehicles.map(\.name)
            request.pageToken = page.nextPageToken
        } while !request.pageToken.isEmpty
        #expect(listed == [0, 3, 6, 9, 12, 15, 18].map { "providers/p/deliveryVehicles/dv-\($0)" })
        // Without the viewport, the attribute's index answers, total included.
        var everywhere = ListDeliveryVehiclesRequest.with {
            $0.filter = "attributes.zone = north"; $0.pageSize = 100
        }
        let north = try DeliveryVehicleListing.page(
            everywhere, filter: try DeliveryVehicleListing.filter(of: everywhere), in: deliveries)
        #expect(north.totalSize == 10 && north.deliveryVehicles.count == 10)
        everywhere.filter = "attributes.zone = south AND attributes.zone != north"
        let south = try DeliveryVehicleListing.page(
            everywhere, filter: try DeliveryVehicleListing.filter(of: everywhere), in: deliveries)
        #expect(south.totalSize == 20 && south.deliveryVehicles.count == 20)
        #expect(throws: InvalidArgument.self) {
            try DeliveryVehicleListing.filter(of: .with { $0.filter = "type = AUTO" })
        }
    }
}
