import CommandSupport
import Foundation
import TestSupport
import Testing

/// Google's own Python delivery client (`google-maps-fleetengine-delivery`), driven by
/// `Tests/Interop/delivery_client.py` against the local Fleet Engine over both of its
/// transports, gRPC and REST, with nothing changed but its endpoint.
enum GoogleDeliveryClient {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Interop/delivery_client.py").path

    /// Whether python3 with google-maps-fleetengine-delivery is here. CI installs it, so there
    /// a missing module fails the run instead of skipping.
    static func isAvailable() async -> Bool {
        if ProcessInfo.processInfo.environment["CI"] != nil { return true }
        let exit = try? await ChildProcess(["python3", "-c", "import google.maps.fleetengine_delivery_v1"]).exit(
            within: .seconds(60))
        return exit?.exited == true && exit?.status == 0
    }
}

@Suite(
    "Google's Python delivery client",
    .enabled(
        "python3 with google-maps-fleetengine-delivery is not installed (pip install google-maps-fleetengine-delivery); CI installs it"
    ) {
        await GoogleDeliveryClient.isAvailable()
    }
)
struct GoogleDeliveryClientTests {
    @Test func everyMethodOverGRPCAndRESTAnswersAndRefusesAsFleetEngineDoes() async throws {
        let engine = try await TestEngine.shared
        let grpcPort = try #require(engine.grpcPort)
        let transports = ["grpc", "rest"]
        var tokens: [String: [String: String]] = [:]
        for transport in transports {
            tokens[transport] = [
                "server": Tokens.deliveryServer, "fleet_reader": Tokens.deliveryFleetReader,
                "trusted_driver": Tokens.trustedDeliveryDriver("\(transport)-dv", taskID: "\(transport)-delivery"),
                "untrusted_driver": Tokens.untrustedDeliveryDriver("\(transport)-dv"),
                "other_driver": Tokens.untrustedDeliveryDriver("someone-else"),
                "consumer": Tokens.deliveryConsumer(trackingID: "\(transport)-ship"),
                "on_demand_server": Tokens.admin,
            ]
        }
        let input = try JSONSerialization.data(withJSONObject: [
            "grpc": "127.0.0.1:\(grpcPort)", "rest": "127.0.0.1:\(engine.port)", "project": TestKeys.project,
            "tokens": tokens,
        ])
        let exit = try await ChildProcess(
            ["python3", GoogleDeliveryClient.script], input: String(decoding: input, as: UTF8.self)
        )
        .exit(within: .seconds(180))
        try #require(exit.exited && exit.status == 0, "\(exit.output)")
        let lastLine = exit.output.split(separator: "\n").last.map(String.init) ?? ""
        let seen = try #require(
            try JSONSerialization.jsonObject(with: Data(lastLine.utf8)) as? [String: [String: Any]], "\(exit.output)")
        let name = "providers/\(TestKeys.project)"

        for transport in transports {
            let saw = try #require(seen[transport])
            #expect(
                saw["created_vehicle"] as? [String: String] == [
                    "name": "\(name)/deliveryVehicles/\(transport)-dv", "type": "AUTO",
                ])
            #expect(
                saw["batch"] as? [String] == [
                    "\(name)/tasks/\(transport)-pickup", "\(name)/tasks/\(transport)-delivery",
                ])
            #expect(
                saw["created_task"] as? [String: String] == [
                    "name": "\(name)/tasks/\(transport)-lone", "state": "OPEN",
                ])
            #expect(saw["stops"] as? [[String]] == [["\(transport)-pickup"], ["\(transport)-delivery"]])
            #expect(saw["stop_task_duration"] as? Int == 120)
            #expect(saw["assigned_to"] as? String == "\(transport)-dv")
            #expect(saw["moved"] as? NSDictionary == ["latitude": 35.605, "stamped": true])
            #expect(saw["driver_reads_vehicle"] as? String == "\(name)/deliveryVehicles/\(transport)-dv")
            #expect(
                saw["tracking"] as? NSDictionary == ["state": "OPEN", "stops": 1, "vehicle": 35.605, "has_eta": true])
            #expect(saw["arrived"] as? String == "ARRIVED")
            #expect(saw["pickup_after_stop"] as? String == "CLOSED")
            #expect(
                saw["outcome"] as? NSDictionary == [
                    "outcome": "SUCCEEDED", "source": "LAST_VEHICLE_LOCATION", "latitude": 35.605,
                ])
            #expect(saw["open_tasks_of_vehicle"] as? [String] == ["\(name)/tasks/\(transport)-delivery"])
            #expect(
                saw["shipment_tasks"] as? [String] == [
                    "\(name)/tasks/\(transport)-delivery", "\(name)/tasks/\(transport)-pickup",
                ])
            #expect(saw["listed_vehicle_has_no_stops"] as? [Int] == [0])
            #expect(
                saw["refusals"] as? [String: String] == [
                    "no_token": "UNAUTHENTICATED", "untrusted_driver_sets_stops": "PERMISSION_DENIED",
                    "other_driver_reads_vehicle": "PERMISSION_DENIED",
                    "consumer_other_shipment": "PERMISSION_DENIED", "on_demand_token": "PERMISSION_DENIED",
                    "task_on_two_vehicles": "FAILED_PRECONDITION",
                    "close_assigned_task": "FAILED_PRECONDITION", "reopen_task": "FAILED_PRECONDITION",
                    "second_outcome": "FAILED_PRECONDITION",
                    "delete_busy_vehicle": "FAILED_PRECONDITION", "delete_assigned_task": "FAILED_PRECONDITION",
                    "batch_of_501": "INVALID_ARGUMENT",
                    "task_without_tracking_id": "INVALID_ARGUMENT", "filter_that_does_not_parse": "INVALID_ARGUMENT",
                    "filter_on_unknown_field": "INVALID_ARGUMENT", "existing_task": "ALREADY_EXISTS",
                    "missing_task": "NOT_FOUND",
                ], "\(transport)")
            #expect(saw["after_cleanup"] as? [String: String] == ["vehicle": "NOT_FOUND", "batch_task": "NOT_FOUND"])
            // The permission table, method by method, for each app role (docs/deliveries.md).
            let allowed: [String: Set<String>] = [
                "fleet_reader": ["get_vehicle", "list_vehicles", "get_task", "list_tasks", "tracking"],
                "trusted_driver": [
                    "create_vehicle", "get_vehicle", "move_vehicle", "set_stops", "create_task", "update_task",
                ],
                "untrusted_driver": ["get_vehicle", "move_vehicle"],
                "consumer": ["tracking"],
                "on_demand_server": [],
            ]
            let matrix = try #require(saw["matrix"] as? [String: [String: String]])
            #expect(Set(matrix.keys) == Set(allowed.keys))
            for (role, statuses) in matrix {
                #expect(statuses.count == 13, "\(role): \(statuses)")
                for (method, status) in statuses {
                    #expect(
                        (status != "PERMISSION_DENIED") == allowed[role]!.contains(method),
                        "\(transport) \(role) \(method): \(status)")
                }
            }
            #expect(
                (saw["batch_of_501_says"] as? String)?.contains("at most 500 may be created at once") == true,
                "\(saw["batch_of_501_says"] ?? "no refusal")")
        }
    }
}
