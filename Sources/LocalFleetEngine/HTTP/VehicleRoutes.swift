import FleetServerSupport
import Hummingbird

/// `POST|GET /vehicles`, `GET|PUT|DELETE /vehicles/{v}`, `POST /vehicles/{v}:updateAttributes` and
/// `POST /vehicles:search` under `/v1/providers/{p}`: each reads the path, query and proto3 JSON body and calls the core's
/// operation (the token was checked by the middleware).
struct VehicleRoutes: Sendable {
    typealias Context = FleetEngineRequestContext

    let core: FleetEngineCore

    func register(on group: RouterGroup<Context>) {
        group.route(.post, "vehicles", "CreateVehicle", core: core) { request, context in try await create(request, context) }
        group.route(.get, "vehicles", "ListVehicles", core: core) { request, context in try await list(request, context) }
        group.route(.post, "vehicles/{vehicle}:updateAttributes", "UpdateVehicleAttributes", core: core) { request, context in
            try await updateAttributes(request, context)
        }
        group.route(.get, "vehicles/:vehicle", "GetVehicle", core: core) { request, context in try await get(request, context) }
        group.route(.put, "vehicles/:vehicle", "UpdateVehicle", core: core) { request, context in try await update(request, context) }
        group.route(.delete, "vehicles/:vehicle", "DeleteVehicle", core: core) { request, context in try await delete(request, context) }
        group.route(.post, "vehicles:search", "SearchVehicles", core: core) { request, context in try await search(request, context) }
    }

    private func create(_ request: Request, _ context: Context) async throws -> Vehicle {
        try await core.createVehicle(context.fleetCall(), vehicleID: request.uri.queryParameters.get("vehicleId") ?? "") {
            try await ProtoJSONBody.decode(Vehicle.self, from: request, quickReader: Vehicle.quicklyRead)
        }
    }

    private func get(_ request: Request, _ context: Context) async throws -> Vehicle {
        try await core.getVehicle(context.fleetCall(), vehicleID: context.pathParameter("vehicle"))
    }

    private func update(_ request: Request, _ context: Context) async throws -> Vehicle {
        try await core.updateVehicle(
            context.fleetCall(), vehicleID: context.pathParameter("vehicle"), updateMask: request.uri.queryParameters.get("updateMask")
        ) {
            try await ProtoJSONBody.decode(Vehicle.self, from: request, quickReader: Vehicle.quicklyRead)
        }
    }

    private func delete(_ request: Request, _ context: Context) async throws -> EmptyResponse {
        try await core.deleteVehicle(context.fleetCall(), vehicleID: context.pathParameter("vehicle"))
        return EmptyResponse()
    }

    private func updateAttributes(_ request: Request, _ context: Context) async throws -> VehicleAttributeList {
        VehicleAttributeList(attributes: try await core.updateVehicleAttributes(context.fleetCall(), vehicleID: context.pathParameter("vehicle")) {
            try await ProtoJSONBody.decode(VehicleAttributeList.self, from: request).attributes ?? []
        })
    }

    private func list(_ request: Request, _ context: Context) async throws -> ListVehiclesResponse {
        try await core.listVehicles(context.fleetCall()) { try ListVehiclesQuery(query: request.uri.queryParameters) }
    }

    private func search(_ request: Request, _ context: Context) async throws -> SearchVehiclesResponse {
        try await core.searchVehicles(context.fleetCall()) { try await ProtoJSONBody.decode(SearchVehiclesRequest.self, from: request) }
    }
}
