import FleetAuthServerHTTP
import FleetEngineProtos
import Foundation
import SwiftProtobuf

/// VehicleService's methods. Each checks, in order: the permission (403), the request (400),
/// the vehicle (404); the token (401) was checked by the door through ``authenticate``.
extension FleetEngineCore {
    /// CreateVehicle: vehicle `vehicleID` from the body `readBody` gives, once saved.
    func createVehicle(_ call: FleetCall, vehicleID: String, readBody: () throws -> Vehicle) async throws -> Vehicle {
        var vehicle = try checkedCreation(of: Vehicle.self, call, id: vehicleID, readBody: readBody)
        vehicle.stampServerTime(now())
        return try await state.createVehicle(vehicleID, vehicle).saved()
    }

    /// GetVehicle.
    func getVehicle(_ call: FleetCall, vehicleID: String) throws -> Vehicle {
        _ = try authorize(.getVehicle(vehicleID: vehicleID), call)
        try Self.requireValidID(vehicleID, "the vehicle id")
        guard let vehicle = state.vehicle(vehicleID) else {
            throw APIError.notFound("vehicle '\(vehicleID)' does not exist")
        }
        return vehicle
    }

    /// UpdateVehicle: the fields `updateMask` names, from the body `readBody` gives, once saved.
    func updateVehicle(_ call: FleetCall, vehicleID: String, updateMask: String?, readBody: () throws -> Vehicle)
        async throws -> Vehicle
    {
        try await acceptVehicleUpdate(call, vehicleID: vehicleID, updateMask: updateMask, readBody: readBody).saved()
    }

    /// UpdateVehicle up to the acceptance of its write, without waiting: its caller answers
    /// once the write is saved (``Accepted``), as the REST door's location updates do from the
    /// event loop.
    func acceptVehicleUpdate(_ call: FleetCall, vehicleID: String, updateMask: String?, readBody: () throws -> Vehicle)
        throws -> Accepted<Vehicle>
    {
        var update = try checkedUpdate(
            of: Vehicle.self, call, id: vehicleID, updateMask: updateMask, readBody: readBody)
        update.resource.stampServerTime(now())
        return try state.updateVehicle(vehicleID, with: update.resource, fields: update.fields)
    }

    /// SearchVehicles: a consumer sees approximate positions only.
    func searchVehicles(_ call: FleetCall, readBody: () throws -> SearchVehiclesRequest) throws
        -> SearchVehiclesResponse
    {
        let grant = try authorize(.searchVehicles, call).grant ?? .full
        let search = try readBody()
        try Self.validate { () throws(InvalidArgument) in try search.validate() }
        let matches = state.search(search, now: now())
        let pickup = search.pickupPoint.point
        return .with {
            $0.matches = grant == .approximate ? matches.map { ApproximateView.of($0, pickup: pickup) } : matches
        }
    }
}

extension FleetEngineCore {
    /// UpdateVehicleAttributes: merges the attributes of the request `readBody` gives into the
    /// vehicle's, by key; answers with all of the vehicle's attributes once saved.
    func updateVehicleAttributes(
        _ call: FleetCall, vehicleID: String, readBody: () throws -> Maps_Fleetengine_V1_UpdateVehicleAttributesRequest
    ) async throws -> Maps_Fleetengine_V1_UpdateVehicleAttributesResponse {
        _ = try authorize(.updateVehicleAttributes(vehicleID: vehicleID), call)
        try Self.requireValidID(vehicleID, "the vehicle id")
        let request = try readBody()
        try Self.validate { () throws(InvalidArgument) in
            try request.requireKnownFields("the request")
            guard !request.attributes.isEmpty else {
                throw InvalidArgument("attributes is required: give at least one")
            }
            try Vehicle.with { $0.attributes = request.attributes }.validateUpdate(of: [.attributes])
        }
        let merged = try await state.mergeAttributes(vehicleID, request.attributes).saved()
        return .with { $0.attributes = merged }
    }

    /// ListVehicles: the page of vehicles, by id, that pass the query `readQuery` gives.
    func listVehicles(_ call: FleetCall, readQuery: () throws -> ListVehiclesRequest) throws -> ListVehiclesResponse {
        _ = try authorize(.listVehicles, call)
        let query = try readQuery()
        try Self.validate { () throws(InvalidArgument) in try query.validate() }
        do {
            return try state.listVehicles(query, now: now())
        } catch {
            throw APIError.invalidArgument(error.description)
        }
    }
}

extension FleetEngineCore {
    /// DeleteVehicle: removes a vehicle that has no unfinished trips, once saved.
    func deleteVehicle(_ call: FleetCall, vehicleID: String) async throws {
        _ = try authorize(.deleteVehicle(vehicleID: vehicleID), call)
        try Self.requireValidID(vehicleID, "the vehicle id")
        try await state.deleteVehicle(vehicleID).saved()
    }
}

extension Vehicle {
    /// Stamps the location's `serverTime`, when the vehicle has a location: when the engine
    /// received it.
    mutating func stampServerTime(_ now: Date) {
        guard hasLastLocation else { return }
        lastLocation.serverTime = Google_Protobuf_Timestamp(date: now)
    }
}
