import FleetServerSupport
import Foundation
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
        let id = request.uri.queryParameters.get("tripId") ?? ""
        _ = try access.authorize(.createTrip(tripID: id), context)
        try RouteAccess.requireValidID(id, "the tripId query parameter")
        let trip = try await ProtoJSONBody.decode(Trip.self, from: request)
        let name = ResourceName.trip(provider: try RouteAccess.pathParameter("provider", context), id: id)
        try RouteAccess.validate { () throws(InvalidArgument) in
            try ResourceName.check(trip.name, matches: name)
            try trip.validateForCreation()
        }
        return try await state.createTrip(id, trip)
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
        let id = try RouteAccess.pathParameter("trip", context)
        let decision = try access.authorize(.updateTrip(tripID: id), context)
        if case .denied(let rule) = decision.resolved(tripVehicleID: await state.trip(id)?.vehicleId) {
            throw APIError.permissionDenied(rule)
        }
        try RouteAccess.requireValidID(id, "the trip id")
        var fields: Set<TripField> = []
        try RouteAccess.validate { () throws(InvalidArgument) in
            fields = try FieldMask.parse(request.uri.queryParameters.get("updateMask"))
            try (decision.grant ?? .full).checkWritable(fields)
        }
        let trip = try await ProtoJSONBody.decode(Trip.self, from: request)
        let name = ResourceName.trip(provider: try RouteAccess.pathParameter("provider", context), id: id)
        try RouteAccess.validate { () throws(InvalidArgument) in
            try ResourceName.check(trip.name, matches: name)
            try trip.validateUpdate(of: fields)
        }
        return try await state.updateTrip(id, with: trip, fields: fields, decision: decision)
    }
}
