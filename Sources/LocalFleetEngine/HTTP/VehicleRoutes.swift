import FleetServerSupport
import Hummingbird

/// `POST /vehicles?vehicleId=`, `GET|PUT /vehicles/{v}` and `POST /vehicles:search` under
/// `/v1/providers/{p}`: each reads the path, query and proto3 JSON body and calls the core's
/// operation (the token was checked by the middleware).
struct VehicleRoutes: Sendable {
    typealias Context = FleetEngineRequestContext

    let core: FleetEngineCore

    func register(on group: RouterGroup<Context>) {
        group.post("vehicles") { request, context in try await create(request, context) }
        group.get("vehicles/:vehicle") { request, context in try await get(request, context) }
        group.put("vehicles/:vehicle") { request, context in try await update(request, context) }
        group.post("vehicles:search") { request, context in try await search(request, context) }
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

    private func search(_ request: Request, _ context: Context) async throws -> SearchVehiclesResponse {
        try await core.searchVehicles(context.fleetCall()) { try await ProtoJSONBody.decode(SearchVehiclesRequest.self, from: request) }
    }
}
