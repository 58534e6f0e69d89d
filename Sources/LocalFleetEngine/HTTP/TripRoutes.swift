import FleetServerSupport
import Hummingbird

/// `POST /trips?tripId=` and `GET|PUT /trips/{t}` under `/v1/providers/{p}`: each reads the
/// path, query and proto3 JSON body and calls the core's operation.
struct TripRoutes: Sendable {
    typealias Context = FleetEngineRequestContext

    let core: FleetEngineCore

    func register(on group: RouterGroup<Context>) {
        group.post("trips") { request, context in try await create(request, context) }
        group.get("trips/:trip") { request, context in try await get(request, context) }
        group.put("trips/:trip") { request, context in try await update(request, context) }
    }

    private func create(_ request: Request, _ context: Context) async throws -> Trip {
        try await core.createTrip(context.fleetCall(), tripID: request.uri.queryParameters.get("tripId") ?? "") {
            try await ProtoJSONBody.decode(Trip.self, from: request)
        }
    }

    private func get(_ request: Request, _ context: Context) async throws -> Trip {
        try await core.getTrip(context.fleetCall(), tripID: context.pathParameter("trip"))
    }

    private func update(_ request: Request, _ context: Context) async throws -> Trip {
        try await core.updateTrip(
            context.fleetCall(), tripID: context.pathParameter("trip"), updateMask: request.uri.queryParameters.get("updateMask")
        ) {
            try await ProtoJSONBody.decode(Trip.self, from: request)
        }
    }
}
