import FleetEngineProtos
import Foundation
import GRPCCore
import SwiftProtobuf
import TestSupport
import Testing

/// Both doors agree on the delivery methods too: each of the 12, called by a token of every
/// role (and by none, and by a stranger), gets the same status and message through REST and
/// gRPC, and reads get the same resource (see ``DoorAgreementTests``).
@Suite("REST and gRPC agree on deliveries")
struct DeliveryDoorAgreementTests {
    typealias Call = DoorAgreementTests.Call
    static let parent = DoorAgreementTests.parent

    /// A token of each role, with the claims of its kind for the suite's resources.
    static let tokens: [(String, @Sendable () -> String?)] = [
        ("delivery server", { Tokens.deliveryServer }), ("delivery admin", { Tokens.deliveryAdmin }),
        ("service super user", { Tokens.server }),
        ("fleet reader", { Tokens.deliveryFleetReader }),
        ("trusted driver", { Tokens.trustedDeliveryDriver("agree-dv") }),
        ("untrusted driver", { Tokens.untrustedDeliveryDriver("agree-dv") }),
        ("other driver", { Tokens.untrustedDeliveryDriver("elsewhere") }),
        ("consumer", { Tokens.deliveryConsumer(trackingID: "agree-ship") }),
        ("other consumer", { Tokens.deliveryConsumer(trackingID: "elsewhere") }),
        ("on-demand admin", { Tokens.admin }), ("on-demand driver", { Tokens.driver("agree-dv") }),
        ("no token", { nil }),
        ("stranger", { Tokens.mint(TestKeys.stranger, .deliveryServer) }),
    ]

    static let location = #"{"lastLocation":{"location":{"latitude":35.6,"longitude":139.7}}}"#
    static let task =
        #"{"type":"DELIVERY","state":"OPEN","trackingId":"agree-other","taskDuration":"60s","plannedLocation":{"point":{"latitude":35.6,"longitude":139.7}}}"#

    static func calls(as token: String) -> [Call] {
        let tag = token.replacingOccurrences(of: " ", with: "-")
        return [
            Call(name: "GetDeliveryVehicle", method: .GET, path: "/deliveryVehicles/agree-dv", body: nil) {
                grpc, metadata, _ in
                try await grpc.deliveries.getDeliveryVehicle(
                    .with { $0.name = "\(parent)/deliveryVehicles/agree-dv" }, metadata: metadata)
            },
            Call(
                name: "UpdateDeliveryVehicle", method: .PATCH,
                path: "/deliveryVehicles/agree-dv?updateMask=lastLocation", body: location
            ) { grpc, metadata, _ in
                try await grpc.deliveries.updateDeliveryVehicle(
                    .with {
                        $0.deliveryVehicle = try! DeliveryVehicleMessage(jsonString: location)
                        $0.deliveryVehicle.name = "\(parent)/deliveryVehicles/agree-dv"
                        $0.updateMask = .with { $0.paths = ["last_location"] }
                    },
                    metadata: metadata)
            },
            Call(
                name: "CreateDeliveryVehicle", method: .POST,
                path: "/deliveryVehicles?deliveryVehicleId=agree-{door}-\(tag)", body: "{}"
            ) {
                grpc, metadata, door in
                try await grpc.deliveries.createDeliveryVehicle(
                    .with {
                        $0.parent = parent; $0.deliveryVehicleID = "agree-\(door)-\(tag)"
                    }, metadata: metadata)
            },
            Call(
                name: "DeleteDeliveryVehicle", method: .DELETE, path: "/deliveryVehicles/agree-{door}-\(tag)", body: nil
            ) { grpc, metadata, door in
                try await grpc.deliveries.deleteDeliveryVehicle(
                    .with { $0.name = "\(parent)/deliveryVehicles/agree-\(door)-\(tag)" }, metadata: metadata)
            },
            Call(
                name: "ListDeliveryVehicles", method: .GET,
                path: "/deliveryVehicles?filter=attributes.suite%3Dagreement", body: nil
            ) { grpc, metadata, _ in
                try await grpc.deliveries.listDeliveryVehicles(
                    .with {
                        $0.parent = parent; $0.filter = "attributes.suite=agreement"
                    }, metadata: metadata)
            },
            Call(name: "CreateTask", method: .POST, path: "/tasks?taskId=agree-{door}-\(tag)", body: task) {
                grpc, metadata, door in
                try await grpc.deliveries.createTask(
                    .with {
                        $0.parent = parent; $0.taskID = "agree-\(door)-\(tag)";
                        $0.task = try! TaskMessage(jsonString: task)
                    }, metadata: metadata)
            },
            Call(name: "DeleteTask", method: .DELETE, path: "/tasks/agree-{door}-\(tag)", body: nil) {
                grpc, metadata, door in
                try await grpc.deliveries.deleteTask(
                    .with { $0.name = "\(parent)/tasks/agree-\(door)-\(tag)" }, metadata: metadata)
            },
            Call(
                name: "BatchCreateTasks", method: .POST, path: "/tasks:batchCreate",
                body: #"{"requests":[{"taskId":"agree-batch-{door}-\#(tag)","task":\#(task)}]}"#
            ) { grpc, metadata, door in
                try await grpc.deliveries.batchCreateTasks(
                    .with {
                        $0.parent = parent
                        $0.requests = [
                            .with {
                                $0.taskID = "agree-batch-\(door)-\(tag)"; $0.task = try! TaskMessage(jsonString: task)
                            }
                        ]
                    },
                    metadata: metadata)
            },
            Call(name: "GetTask", method: .GET, path: "/tasks/agree-task", body: nil) { grpc, metadata, _ in
                try await grpc.deliveries.getTask(.with { $0.name = "\(parent)/tasks/agree-task" }, metadata: metadata)
            },
            Call(
                name: "UpdateTask", method: .PATCH, path: "/tasks/agree-task?updateMask=attributes",
                body: #"{"attributes":[{"key":"by","stringValue":"\#(tag)"}]}"#
            ) { grpc, metadata, _ in
                try await grpc.deliveries.updateTask(
                    .with {
                        $0.task = .with {
                            $0.name = "\(parent)/tasks/agree-task";
                            $0.attributes = [
                                .with {
                                    $0.key = "by"; $0.stringValue = tag
                                }
                            ]
                        }
                        $0.updateMask = .with { $0.paths = ["attributes"] }
                    },
                    metadata: metadata)
            },
            Call(name: "ListTasks", method: .GET, path: "/tasks?filter=delivery_vehicle_id%3Dagree-dv", body: nil) {
                grpc, metadata, _ in
                try await grpc.deliveries.listTasks(
                    .with {
                        $0.parent = parent; $0.filter = "delivery_vehicle_id=agree-dv"
                    }, metadata: metadata)
            },
            Call(name: "GetTaskTrackingInfo", method: .GET, path: "/taskTrackingInfo/agree-ship", body: nil) {
                grpc, metadata, _ in
                try await grpc.deliveries.getTaskTrackingInfo(
                    .with { $0.name = "\(parent)/taskTrackingInfo/agree-ship" }, metadata: metadata)
            },
        ]
    }

    @Test func everyRoleGetsTheSameAnswerFromBothDoorsForEveryDeliveryMethod() async throws {
        let engine = try await TestEngine.shared
        try await Self.created.value(engine)
        let statuses = try await GRPCTestClient.with(engine) { grpc in
            var statuses: Set<String> = []
            for (tokenName, token) in Self.tokens {
                for call in Self.calls(as: tokenName) {
                    let (rest, viaGRPC) = try await DoorAgreementTests.answers(
                        call, token: token(), engine: engine, grpc: grpc)
                    #expect(
                        DoorAgreementTests.comparable(rest, call) == DoorAgreementTests.comparable(viaGRPC, call),
                        "\(tokenName) \(call.name): REST \(rest) / gRPC \(viaGRPC)")
                    statuses.insert(rest.status)
                }
            }
            return statuses
        }
        #expect(statuses == ["OK", "PERMISSION_DENIED", "UNAUTHENTICATED"])
    }

    /// Delivery vehicle agree-dv (attribute suite=agreement) with task agree-task of tracking
    /// id agree-ship on its stops, made once through REST. The task's tracking info hides its
    /// times, which would differ by the moment each door answers.
    private static let created = DeliveryResourcesOnce()
}

typealias DeliveryVehicleMessage = Maps_Fleetengine_Delivery_V1_DeliveryVehicle
typealias TaskMessage = Maps_Fleetengine_Delivery_V1_Task

/// Creates the suite's resources on first use only.
private actor DeliveryResourcesOnce {
    private var creation: Task<Void, any Error>?

    func value(_ engine: TestClient) async throws {
        let creation =
            self.creation
            ?? Task {
                let p = Fixtures.provider
                let server = Tokens.deliveryServer
                let vehicle = try await engine.send(
                    .POST, "\(p)/deliveryVehicles?deliveryVehicleId=agree-dv", token: server,
                    body:
                        #"{"attributes":[{"key":"suite","stringValue":"agreement"}],"lastLocation":{"location":{"latitude":35.6,"longitude":139.7}}}"#
                )
                try #require(vehicle.status == 200, "\(vehicle)")
                let task = try await engine.send(
                    .POST, "\(p)/tasks?taskId=agree-task", token: server,
                    body: """
                        {"type":"PICKUP","state":"OPEN","trackingId":"agree-ship","taskDuration":"60s",\
                        "plannedLocation":{"point":{"latitude":35.61,"longitude":139.7}},\
                        "taskTrackingViewConfig":{"estimatedArrivalTimeVisibility":{"never":true},"estimatedTaskCompletionTimeVisibility":{"never":true}}}
                        """)
                try #require(task.status == 200, "\(task)")
                let stops = try await engine.send(
                    .PATCH, "\(p)/deliveryVehicles/agree-dv?updateMask=remainingVehicleJourneySegments", token: server,
                    body:
                        #"{"remainingVehicleJourneySegments":[{"stop":{"state":"NEW","plannedLocation":{"point":{"latitude":35.61,"longitude":139.7}},"tasks":[{"taskId":"agree-task"}]}}]}"#
                )
                try #require(stops.status == 200, "\(stops)")
            }
        self.creation = creation
        try await creation.value
    }
}
