import FleetEngineProtos
import GRPCCore
import SwiftProtobuf

/// `maps.fleetengine.delivery.v1.DeliveryService` over gRPC: each method hands its request
/// message to the core's operation, the same one the REST route calls.
@available(macOS 15.0, iOS 18.0, *)
enum DeliveryServiceMethods {
    private typealias Method = Maps_Fleetengine_Delivery_V1_DeliveryService.Method

    /// The service's methods.
    static let all: [any GRPCMethodRow] = [
        GRPCMethod(
            Method.CreateDeliveryVehicle.self, .creation(parent: \.parent, id: \.deliveryVehicleID),
            body: .field(\.deliveryVehicle)
        ) { core, call, id, message in
            try await core.createDeliveryVehicle(call, vehicleID: id) { message.deliveryVehicle }
        },
        GRPCMethod(Method.GetDeliveryVehicle.self, .resource(\.name, in: "deliveryVehicles")) { core, call, id, _ in
            try core.getDeliveryVehicle(call, vehicleID: id)
        },
        GRPCMethod(
            Method.UpdateDeliveryVehicle.self, .resource(\.deliveryVehicle.name, in: "deliveryVehicles"),
            body: .field(\.deliveryVehicle)
        ) { core, call, id, message in
            try await core.updateDeliveryVehicle(call, vehicleID: id, updateMask: message.updateMask.joinedPaths) {
                message.deliveryVehicle
            }
        },
        GRPCMethod(Method.DeleteDeliveryVehicle.self, .resource(\.name, in: "deliveryVehicles")) { core, call, id, _ in
            try await core.deleteDeliveryVehicle(call, vehicleID: id)
            return Google_Protobuf_Empty()
        },
        GRPCMethod(Method.ListDeliveryVehicles.self, .collection(\.parent)) { core, call, _, message in
            try core.listDeliveryVehicles(call) { message }
        },
        GRPCMethod(Method.CreateTask.self, .creation(parent: \.parent, id: \.taskID), body: .field(\.task)) {
            core, call, id, message in
            try await core.createTask(call, taskID: id) { message.task }
        },
        GRPCMethod(Method.BatchCreateTasks.self, .collection(\.parent), body: .whole) { core, call, _, message in
            try await core.batchCreateTasks(call) { message }
        },
        GRPCMethod(Method.GetTask.self, .resource(\.name, in: "tasks")) { core, call, id, _ in
            try core.getTask(call, taskID: id)
        },
        GRPCMethod(Method.UpdateTask.self, .resource(\.task.name, in: "tasks"), body: .field(\.task)) {
            core, call, id, message in
            try await core.updateTask(call, taskID: id, updateMask: message.updateMask.joinedPaths) { message.task }
        },
        GRPCMethod(Method.DeleteTask.self, .resource(\.name, in: "tasks")) { core, call, id, _ in
            try await core.deleteTask(call, taskID: id)
            return Google_Protobuf_Empty()
        },
        GRPCMethod(Method.ListTasks.self, .collection(\.parent)) { core, call, _, message in
            try core.listTasks(call) { message }
        },
        GRPCMethod(Method.GetTaskTrackingInfo.self, .resource(\.name, in: "taskTrackingInfo")) { core, call, id, _ in
            try core.getTaskTrackingInfo(call, trackingID: id)
        },
    ]
}

extension Maps_Fleetengine_Delivery_V1_DeliveryService.Method.CreateDeliveryVehicle: UnaryRPC {}
extension Maps_Fleetengine_Delivery_V1_DeliveryService.Method.GetDeliveryVehicle: UnaryRPC {}
extension Maps_Fleetengine_Delivery_V1_DeliveryService.Method.UpdateDeliveryVehicle: UnaryRPC {}
extension Maps_Fleetengine_Delivery_V1_DeliveryService.Method.DeleteDeliveryVehicle: UnaryRPC {}
extension Maps_Fleetengine_Delivery_V1_DeliveryService.Method.ListDeliveryVehicles: UnaryRPC {}
extension Maps_Fleetengine_Delivery_V1_DeliveryService.Method.CreateTask: UnaryRPC {}
extension Maps_Fleetengine_Delivery_V1_DeliveryService.Method.BatchCreateTasks: UnaryRPC {}
extension Maps_Fleetengine_Delivery_V1_DeliveryService.Method.GetTask: UnaryRPC {}
extension Maps_Fleetengine_Delivery_V1_DeliveryService.Method.UpdateTask: UnaryRPC {}
extension Maps_Fleetengine_Delivery_V1_DeliveryService.Method.DeleteTask: UnaryRPC {}
extension Maps_Fleetengine_Delivery_V1_DeliveryService.Method.ListTasks: UnaryRPC {}
extension Maps_Fleetengine_Delivery_V1_DeliveryService.Method.GetTaskTrackingInfo: UnaryRPC {}
