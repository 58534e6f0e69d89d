import FleetAuthServerHTTP
import FleetEngineProtos
import Hummingbird
import SwiftProtobuf

/// `maps.fleetengine.delivery.v1.DeliveryService` over REST, with Google's HTTP mappings under
/// `/v1/providers/{p}`: `deliveryVehicles` and `tasks` (`POST` to create, `GET` to list, `GET`,
/// `PATCH` and `DELETE` of one), `POST tasks:batchCreate` and `GET taskTrackingInfo/{id}`. Each
/// reads the path, the query and the body (proto3 JSON of the message the gRPC door receives),
/// calls the same core operation as the gRPC door, and answers with the resulting message.
struct DeliveryRoutes: Sendable {
    typealias Context = FleetEngineRequestContext

    let core: FleetEngineCore

    func register(on group: RouterGroup<Context>) {
        registerDeliveryVehicles(on: group)
        registerTasks(on: group)
    }

    /// The delivery vehicles' routes: create, list, get, update, delete.
    private func registerDeliveryVehicles(on group: RouterGroup<Context>) {
        group.route(.post, "deliveryVehicles", "CreateDeliveryVehicle", core: core) { request, context in
            let body = await ProtoJSONBody.collect(request)
            let id = request.uri.formQueryParameters.get("deliveryVehicleId") ?? ""
            return ProtoJSONResponse(
                try await core.createDeliveryVehicle(context.fleetCall(), vehicleID: id) {
                    try ProtoJSONBody.decode(DeliveryVehicle.self, from: body)
                })
        }
        group.route(.get, "deliveryVehicles", "ListDeliveryVehicles", core: core) { request, context in
            ProtoJSONResponse(
                try core.listDeliveryVehicles(context.fleetCall()) {
                    try QueryMessage.decode(ListDeliveryVehiclesRequest.self, from: request.uri.formQueryParameters)
                })
        }
        group.route(.get, "deliveryVehicles/:vehicle", "GetDeliveryVehicle", core: core) { _, context in
            ProtoJSONResponse(
                try core.getDeliveryVehicle(context.fleetCall(), vehicleID: context.pathParameter("vehicle")))
        }
        group.route(.patch, "deliveryVehicles/:vehicle", "UpdateDeliveryVehicle", core: core) { request, context in
            let body = await ProtoJSONBody.collect(request)
            return ProtoJSONResponse(
                try await core.updateDeliveryVehicle(
                    context.fleetCall(), vehicleID: context.pathParameter("vehicle"),
                    updateMask: request.uri.formQueryParameters.get("updateMask")
                ) {
                    try ProtoJSONBody.decode(DeliveryVehicle.self, from: body)
                })
        }
        group.route(.delete, "deliveryVehicles/:vehicle", "DeleteDeliveryVehicle", core: core) { _, context in
            try await core.deleteDeliveryVehicle(context.fleetCall(), vehicleID: context.pathParameter("vehicle"))
            return ProtoJSONResponse(Google_Protobuf_Empty())
        }
    }

    /// The tasks' routes (create, batch create, list, get, update, delete) and tracking info.
    private func registerTasks(on group: RouterGroup<Context>) {
        group.route(.post, "tasks", "CreateTask", core: core) { request, context in
            let body = await ProtoJSONBody.collect(request)
            return ProtoJSONResponse(
                try await core.createTask(
                    context.fleetCall(), taskID: request.uri.formQueryParameters.get("taskId") ?? ""
                ) {
                    try ProtoJSONBody.decode(DeliveryTask.self, from: body)
                })
        }
        group.route(.post, "tasks:batchCreate", "BatchCreateTasks", core: core) { request, context in
            // Up to 500 tasks: a body as large as gRPC takes.
            let body = await ProtoJSONBody.collect(request, limit: ProtoJSONBody.maximumMessageSize)
            return ProtoJSONResponse(
                try await core.batchCreateTasks(context.fleetCall()) {
                    try ProtoJSONBody.decode(Maps_Fleetengine_Delivery_V1_BatchCreateTasksRequest.self, from: body)
                })
        }
        group.route(.get, "tasks", "ListTasks", core: core) { request, context in
            ProtoJSONResponse(
                try core.listTasks(context.fleetCall()) {
                    try QueryMessage.decode(ListTasksRequest.self, from: request.uri.formQueryParameters)
                })
        }
        group.route(.get, "tasks/:task", "GetTask", core: core) { _, context in
            ProtoJSONResponse(try core.getTask(context.fleetCall(), taskID: context.pathParameter("task")))
        }
        group.route(.patch, "tasks/:task", "UpdateTask", core: core) { request, context in
            let body = await ProtoJSONBody.collect(request)
            return ProtoJSONResponse(
                try await core.updateTask(
                    context.fleetCall(), taskID: context.pathParameter("task"),
                    updateMask: request.uri.formQueryParameters.get("updateMask")
                ) {
                    try ProtoJSONBody.decode(DeliveryTask.self, from: body)
                })
        }
        group.route(.delete, "tasks/:task", "DeleteTask", core: core) { _, context in
            try await core.deleteTask(context.fleetCall(), taskID: context.pathParameter("task"))
            return ProtoJSONResponse(Google_Protobuf_Empty())
        }
        group.route(.get, "taskTrackingInfo/:tracking", "GetTaskTrackingInfo", core: core) { _, context in
            ProtoJSONResponse(
                try core.getTaskTrackingInfo(context.fleetCall(), trackingID: context.pathParameter("tracking")))
        }
    }
}
