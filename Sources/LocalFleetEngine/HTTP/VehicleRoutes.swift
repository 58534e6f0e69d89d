import FleetServerSupport
import Foundation
import Hummingbird

/// `POST /vehicles?vehicleId=`, `GET|PUT /vehicles/{v}` and `POST /vehicles:search` under
/// `/v1/providers/{p}`. Each checks, in order: the token (401, by the middleware), the
/// permission (403), the request (400), the resource (404).
struct VehicleRoutes: Sendable {
    typealias Context = FleetEngineRequestContext

    let state: FleetState
    let access: RouteAccess
    let now: @Sendable () -> Date

    func register(on group: RouterGroup<Context>) {
        group.post("vehicles") { request, context in try await create(request, context) }
        group.get("vehicles/:vehicle") { request, context in try await get(request, context) }
        group.put("vehicles/:vehicle") { request, context in try await update(request, context) }
        group.post("vehicles:search") { request, context in try await search(request, context) }
    }

    private func create(_ request: Request, _ context: Context) async throws -> Vehicle {
        var creation = try await access.checkedCreation(of: Vehicle.self, request, context)
        creation.resource.lastLocation?.serverTime = ProtoTimestamp(now())
        return try await state.createVehicle(creation.id, creation.resource)
    }

    private func get(_ request: Request, _ context: Context) async throws -> Vehicle {
        let id = try RouteAccess.pathParameter("vehicle", context)
        _ = try access.authorize(.getVehicle(vehicleID: id), context)
        try RouteAccess.requireValidID(id, "the vehicle id")
        guard let vehicle = await state.vehicle(id) else { throw APIError.notFound("vehicle '\(id)' does not exist") }
        return vehicle
    }

    private func update(_ request: Request, _ context: Context) async throws -> Vehicle {
        var update = try await access.checkedUpdate(of: Vehicle.self, request, context)
        update.resource.lastLocation?.serverTime = ProtoTimestamp(now())
        return try await state.updateVehicle(update.id, with: update.resource, fields: update.fields)
    }

    private func search(_ request: Request, _ context: Context) async throws -> SearchVehiclesResponse {
        let grant = try access.authorize(.searchVehicles, context).grant ?? .full
        let search = try await ProtoJSONBody.decode(SearchVehiclesRequest.self, from: request)
        try RouteAccess.validate { () throws(InvalidArgument) in try search.validate() }
        let matches = await state.search(search)
        guard grant == .approximate, let pickup = search.pickupPoint?.point else { return SearchVehiclesResponse(matches: matches) }
        return SearchVehiclesResponse(matches: matches.map { ApproximateView.of($0, pickup: pickup) })
    }
}
