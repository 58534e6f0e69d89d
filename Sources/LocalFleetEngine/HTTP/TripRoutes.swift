import FleetServerSupport
import Hummingbird

/// `POST /trips?tripId=`, `GET|PUT|DELETE /trips/{t}`, `POST /trips:search` and
/// `POST /billableTrips/{t}:report` under
/// `/v1/providers/{p}`: each reads the
/// path, query and proto3 JSON body and calls the core's operation.
struct TripRoutes: Sendable {
    typealias Context = FleetEngineRequestContext

    let core: FleetEngineCore

    func register(on group: RouterGroup<Context>) {
        group.route(.post, "trips", "CreateTrip", core: core) { request, context in try await create(request, context) }
        group.route(.get, "trips/:trip", "GetTrip", core: core) { request, context in try await get(request, context) }
        group.route(.put, "trips/:trip", "UpdateTrip", core: core) { request, context in try await update(request, context) }
        group.route(.delete, "trips/:trip", "DeleteTrip", core: core) { request, context in try await delete(request, context) }
        group.route(.post, "trips:search", "SearchTrips", core: core) { request, context in try await search(request, context) }
        group.route(.post, "billableTrips/{trip}:report", "ReportBillableTrip", core: core) { request, context in
            try await reportBillable(request, context)
        }
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

    private func delete(_ request: Request, _ context: Context) async throws -> EmptyResponse {
        try await core.deleteTrip(context.fleetCall(), tripID: context.pathParameter("trip"))
        return EmptyResponse()
    }

    private func search(_ request: Request, _ context: Context) async throws -> SearchTripsResponse {
        try await core.searchTrips(context.fleetCall()) { try await ProtoJSONBody.decode(SearchTripsQuery.self, from: request) }
    }

    private func reportBillable(_ request: Request, _ context: Context) async throws -> EmptyResponse {
        try await core.reportBillableTrip(context.fleetCall(), billableTripID: context.pathParameter("trip")) {
            try await ProtoJSONBody.decode(BillableTripReport.self, from: request)
        }
        return EmptyResponse()
    }
}
