import FleetAuthServerHTTP
import FleetEngineProtos
import Hummingbird
import SwiftProtobuf

/// `POST /trips?tripId=`, `GET|PUT|DELETE /trips/{t}`, `POST /trips:search` and
/// `POST /billableTrips/{t}:report` under `/v1/providers/{p}`: each reads the path, the query and
/// the body (proto3 JSON of the message the gRPC door receives), calls the same core operation
/// as the gRPC door, and answers with the resulting message.
struct TripRoutes: Sendable {
    typealias Context = FleetEngineRequestContext

    let core: FleetEngineCore

    func register(on group: RouterGroup<Context>) {
        group.route(.post, "trips", "CreateTrip", core: core) { request, context in try await create(request, context) }
        group.route(.get, "trips/:trip", "GetTrip", core: core) { request, context in try get(request, context) }
        group.route(.put, "trips/:trip", "UpdateTrip", core: core) { request, context in
            try await update(request, context)
        }
        group.route(.delete, "trips/:trip", "DeleteTrip", core: core) { request, context in
            try await delete(request, context)
        }
        group.route(.post, "trips:search", "SearchTrips", core: core) { request, context in
            try await search(request, context)
        }
        group.route(.post, "billableTrips/{trip}:report", "ReportBillableTrip", core: core) { request, context in
            try await reportBillable(request, context)
        }
    }

    private func create(_ request: Request, _ context: Context) async throws -> ProtoJSONResponse<
        Maps_Fleetengine_V1_Trip
    > {
        let body = await ProtoJSONBody.collect(request)
        return ProtoJSONResponse(
            try await core.createTrip(context.fleetCall(), tripID: request.uri.formQueryParameters.get("tripId") ?? "")
            {
                try ProtoJSONBody.decode(Maps_Fleetengine_V1_Trip.self, from: body)
            })
    }

    private func get(_ request: Request, _ context: Context) throws -> ProtoJSONResponse<Maps_Fleetengine_V1_Trip> {
        ProtoJSONResponse(try core.getTrip(context.fleetCall(), tripID: context.pathParameter("trip")))
    }

    private func update(_ request: Request, _ context: Context) async throws -> ProtoJSONResponse<
        Maps_Fleetengine_V1_Trip
    > {
        let body = await ProtoJSONBody.collect(request)
        return ProtoJSONResponse(
            try await core.updateTrip(
                context.fleetCall(), tripID: context.pathParameter("trip"),
                updateMask: request.uri.formQueryParameters.get("updateMask")
            ) {
                try ProtoJSONBody.decode(Maps_Fleetengine_V1_Trip.self, from: body)
            })
    }

    private func delete(_ request: Request, _ context: Context) async throws -> ProtoJSONResponse<Google_Protobuf_Empty>
    {
        try await core.deleteTrip(context.fleetCall(), tripID: context.pathParameter("trip"))
        return ProtoJSONResponse(Google_Protobuf_Empty())
    }

    private func search(_ request: Request, _ context: Context) async throws -> ProtoJSONResponse<
        Maps_Fleetengine_V1_SearchTripsResponse
    > {
        let body = await ProtoJSONBody.collect(request)
        return ProtoJSONResponse(
            try core.searchTrips(context.fleetCall()) {
                try ProtoJSONBody.decode(Maps_Fleetengine_V1_SearchTripsRequest.self, from: body)
            })
    }

    private func reportBillable(_ request: Request, _ context: Context) async throws -> ProtoJSONResponse<
        Google_Protobuf_Empty
    > {
        let body = await ProtoJSONBody.collect(request)
        try core.reportBillableTrip(context.fleetCall(), billableTripID: context.pathParameter("trip")) {
            try ProtoJSONBody.decode(Maps_Fleetengine_V1_ReportBillableTripRequest.self, from: body)
        }
        return ProtoJSONResponse(Google_Protobuf_Empty())
    }
}
