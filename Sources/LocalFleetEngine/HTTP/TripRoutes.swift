import FleetServerSupport
import Hummingbird

/// `POST /trips?tripId=` and `GET|PUT /trips/{t}` under `/v1/providers/{p}`, checked in the
/// same order as the vehicle routes: 401, 403, 400, 404. A driver's access to a trip depends
/// on the trip's vehicle, so it is decided on the stored trip, and a driver gets 403 for a
/// trip that does not exist just as for one that is not its own.
struct TripRoutes: Sendable {
    typealias Context = FleetEngineRequestContext

    let state: FleetState
    let access: RouteAccess

    func register(on group: RouterGroup<Context>) {
        group.post("trips") { request, context in try await create(request, context) }
        group.get("trips/:trip") { request, context in try await get(request, context) }
        group.put("trips/:trip") { request, context in try await update(request, context) }
    }

    private func create(_ request: Request, _ context: Context) async throws -> Trip {
        let creation = try await access.checkedCreation(of: Trip.self, request, context)
        return try await state.createTrip(creation.id, creation.resource)
    }

    private func get(_ request: Request, _ context: Context) async throws -> Trip {
        let id = try RouteAccess.pathParameter("trip", context)
        let decision = try access.authorize(.getTrip(tripID: id), context)
        let trip = await state.trip(id)
        if case .denied(let rule) = decision.resolved(tripVehicleID: trip?.vehicleId) { throw APIError.permissionDenied(rule) }
        try RouteAccess.requireValidID(id, "the trip id")
        guard let trip else { throw APIError.notFound("trip '\(id)' does not exist") }
        return trip
    }

    private func update(_ request: Request, _ context: Context) async throws -> Trip {
        let update = try await access.checkedUpdate(of: Trip.self, request, context) { id, decision in
            if case .denied(let rule) = decision.resolved(tripVehicleID: await state.trip(id)?.vehicleId) {
                throw APIError.permissionDenied(rule)
            }
        }
        return try await state.updateTrip(update.id, with: update.resource, fields: update.fields, decision: update.decision)
    }
}
