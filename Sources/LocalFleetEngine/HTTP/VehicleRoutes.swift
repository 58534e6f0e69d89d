import FleetAuthServerHTTP
import FleetEngineProtos
import Hummingbird
import SwiftProtobuf

/// `POST|GET /vehicles`, `GET|PUT|DELETE /vehicles/{v}`, `POST /vehicles/{v}:updateAttributes` and
/// `POST /vehicles:search` under `/v1/providers/{p}`: each reads the path, the query and the body
/// (proto3 JSON of the message the gRPC door receives), calls the same core operation as the gRPC
/// door, and answers with the resulting message (the token was checked by the route).
struct VehicleRoutes: Sendable {
    typealias Context = FleetEngineRequestContext

    let core: FleetEngineCore

    func register(on group: RouterGroup<Context>) {
        group.route(.post, "vehicles", "CreateVehicle", core: core) { request, context in
            try await create(request, context)
        }
        group.route(.get, "vehicles", "ListVehicles", core: core) { request, context in try list(request, context) }
        group.route(.post, "vehicles/{vehicle}:updateAttributes", "UpdateVehicleAttributes", core: core) {
            request, context in
            try await updateAttributes(request, context)
        }
        group.route(.get, "vehicles/:vehicle", "GetVehicle", core: core) { request, context in try get(request, context)
        }
        group.route(.put, "vehicles/:vehicle", "UpdateVehicle", core: core) { request, context in
            try await update(request, context)
        }
        group.route(.delete, "vehicles/:vehicle", "DeleteVehicle", core: core) { request, context in
            try await delete(request, context)
        }
        group.route(.post, "vehicles:search", "SearchVehicles", core: core) { request, context in
            try await search(request, context)
        }
    }

    private func create(_ request: Request, _ context: Context) async throws -> ProtoJSONResponse<
        Maps_Fleetengine_V1_Vehicle
    > {
        let body = await ProtoJSONBody.collect(request)
        return ProtoJSONResponse(
            try await core.createVehicle(
                context.fleetCall(), vehicleID: request.uri.formQueryParameters.get("vehicleId") ?? ""
            ) {
                try ProtoJSONBody.decode(Maps_Fleetengine_V1_Vehicle.self, from: body)
            })
    }

    private func get(_ request: Request, _ context: Context) throws -> ProtoJSONResponse<Maps_Fleetengine_V1_Vehicle> {
        ProtoJSONResponse(try core.getVehicle(context.fleetCall(), vehicleID: context.pathParameter("vehicle")))
    }

    /// The router's UpdateVehicle, for what ``LocationUpdateRoute`` leaves to it (paths with a
    /// percent-escape or a colon, chunked bodies, bodies over the limit, requests pipelined
    /// behind one the router answers).
    private func update(_ request: Request, _ context: Context) async throws -> ProtoJSONResponse<
        Maps_Fleetengine_V1_Vehicle
    > {
        let body = await ProtoJSONBody.collect(request)
        return ProtoJSONResponse(
            try await core.updateVehicle(
                context.fleetCall(), vehicleID: context.pathParameter("vehicle"),
                updateMask: request.uri.formQueryParameters.get("updateMask")
            ) {
                try ProtoJSONBody.decode(Maps_Fleetengine_V1_Vehicle.self, from: body)
            })
    }

    private func delete(_ request: Request, _ context: Context) async throws -> ProtoJSONResponse<Google_Protobuf_Empty>
    {
        try await core.deleteVehicle(context.fleetCall(), vehicleID: context.pathParameter("vehicle"))
        return ProtoJSONResponse(Google_Protobuf_Empty())
    }

    private func updateAttributes(
        _ request: Request, _ context: Context
    ) async throws -> ProtoJSONResponse<Maps_Fleetengine_V1_UpdateVehicleAttributesResponse> {
        let body = await ProtoJSONBody.collect(request)
        return ProtoJSONResponse(
            try await core.updateVehicleAttributes(context.fleetCall(), vehicleID: context.pathParameter("vehicle")) {
                try ProtoJSONBody.decode(Maps_Fleetengine_V1_UpdateVehicleAttributesRequest.self, from: body)
            })
    }

    private func list(_ request: Request, _ context: Context) throws -> ProtoJSONResponse<
        Maps_Fleetengine_V1_ListVehiclesResponse
    > {
        ProtoJSONResponse(
            try core.listVehicles(context.fleetCall()) {
                try ListVehiclesRequest(query: request.uri.formQueryParameters)
            })
    }

    private func search(_ request: Request, _ context: Context) async throws -> ProtoJSONResponse<
        Maps_Fleetengine_V1_SearchVehiclesResponse
    > {
        let body = await ProtoJSONBody.collect(request)
        return ProtoJSONResponse(
            try core.searchVehicles(context.fleetCall()) {
                try ProtoJSONBody.decode(Maps_Fleetengine_V1_SearchVehiclesRequest.self, from: body)
            })
    }
}
