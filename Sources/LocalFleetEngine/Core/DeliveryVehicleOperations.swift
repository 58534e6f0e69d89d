import FleetAuthServerHTTP
import FleetEngineProtos
import Foundation
import SwiftProtobuf

/// DeliveryService's delivery vehicle methods, checked in the on-demand order: the permission
/// (403), the request (400), the vehicle (404), the rules that need stored state (400, 409).
extension FleetEngineCore {
    /// CreateDeliveryVehicle: vehicle `vehicleID` from the body `readBody` gives, once saved.
    func createDeliveryVehicle(_ call: FleetCall, vehicleID: String, readBody: () throws -> DeliveryVehicle)
        async throws -> DeliveryVehicle
    {
        var vehicle = try checkedCreation(of: DeliveryVehicle.self, call, id: vehicleID, readBody: readBody)
        vehicle.stampServerTime(now())
        return try await state.createDeliveryVehicle(vehicleID, vehicle).saved()
    }

    /// GetDeliveryVehicle.
    func getDeliveryVehicle(_ call: FleetCall, vehicleID: String) throws -> DeliveryVehicle {
        _ = try authorize(.delivery(.getDeliveryVehicle(vehicleID: vehicleID)), call)
        try Self.requireValidID(vehicleID, "the delivery vehicle id")
        guard let vehicle = state.deliveryVehicle(vehicleID) else {
            throw APIError.notFound("delivery vehicle '\(vehicleID)' does not exist")
        }
        return vehicle
    }

    /// UpdateDeliveryVehicle: the fields `updateMask` names, from the body `readBody` gives,
    /// with the tasks its stops assign or close, once saved.
    func updateDeliveryVehicle(
        _ call: FleetCall, vehicleID: String, updateMask: String?, readBody: () throws -> DeliveryVehicle
    ) async throws -> DeliveryVehicle {
        try await acceptDeliveryVehicleUpdate(call, vehicleID: vehicleID, updateMask: updateMask, readBody: readBody)
            .saved()
    }

    /// UpdateDeliveryVehicle up to the acceptance of its write, without waiting (see
    /// ``acceptVehicleUpdate(_:vehicleID:updateMask:readBody:)``).
    func acceptDeliveryVehicleUpdate(
        _ call: FleetCall, vehicleID: String, updateMask: String?, readBody: () throws -> DeliveryVehicle
    ) throws -> Accepted<DeliveryVehicle> {
        var update = try checkedUpdate(
            of: DeliveryVehicle.self, call, id: vehicleID, updateMask: updateMask, readBody: readBody)
        update.resource.stampServerTime(now())
        return try state.updateDeliveryVehicle(vehicleID, with: update.resource, fields: update.fields)
    }

    /// DeleteDeliveryVehicle: removes a vehicle with no open tasks, once saved.
    func deleteDeliveryVehicle(_ call: FleetCall, vehicleID: String) async throws {
        _ = try authorize(.delivery(.deleteDeliveryVehicle(vehicleID: vehicleID)), call)
        try Self.requireValidID(vehicleID, "the delivery vehicle id")
        try await state.deleteDeliveryVehicle(vehicleID).saved()
    }

    /// ListDeliveryVehicles: the page of vehicles, by id, that pass the query `readQuery` gives.
    func listDeliveryVehicles(_ call: FleetCall, readQuery: () throws -> ListDeliveryVehiclesRequest) throws
        -> ListDeliveryVehiclesResponse
    {
        _ = try authorize(.delivery(.listDeliveryVehicles), call)
        let request = try readQuery()
        var filter: ListFilter?
        try Self.validate { () throws(InvalidArgument) in
            try request.requireKnownFields("the request")
            try DeliveryVehicleListing.validate(request)
            filter = try DeliveryVehicleListing.filter(of: request)
        }
        do {
            return try state.listDeliveryVehicles(request, filter: filter)
        } catch {
            throw APIError.invalidArgument(error.description)
        }
    }
}

extension DeliveryVehicle {
    /// Stamps the location's `serverTime`, when the vehicle has a location: when the engine
    /// received it.
    mutating func stampServerTime(_ now: Date) {
        guard hasLastLocation else { return }
        lastLocation.serverTime = Google_Protobuf_Timestamp(date: now)
    }
}
