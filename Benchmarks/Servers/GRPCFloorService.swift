import FleetEngineProtos
import GRPCCore
import SwiftProtobuf

/// The reference for `bench fleet-engine`'s gRPC runs: `maps.fleetengine.v1.VehicleService` on
/// grpc-swift with nothing behind it. UpdateVehicle answers with the request's vehicle, without
/// token, rules or store; every other method is `UNIMPLEMENTED`. What it serves per second is
/// the most any grpc-swift door can serve on this host at that moment.
@available(macOS 15.0, *)
struct GRPCFloorService: Maps_Fleetengine_V1_VehicleService.SimpleServiceProtocol {
    func updateVehicle(request: Maps_Fleetengine_V1_UpdateVehicleRequest, context: ServerContext) async throws
        -> Maps_Fleetengine_V1_Vehicle
    {
        var vehicle = request.vehicle
        vehicle.name = request.name
        return vehicle
    }

    func createVehicle(request: Maps_Fleetengine_V1_CreateVehicleRequest, context: ServerContext) async throws
        -> Maps_Fleetengine_V1_Vehicle
    {
        throw Self.unimplemented
    }

    func getVehicle(request: Maps_Fleetengine_V1_GetVehicleRequest, context: ServerContext) async throws
        -> Maps_Fleetengine_V1_Vehicle
    {
        throw Self.unimplemented
    }

    func deleteVehicle(request: Maps_Fleetengine_V1_DeleteVehicleRequest, context: ServerContext) async throws
        -> Google_Protobuf_Empty
    {
        throw Self.unimplemented
    }

    func updateVehicleAttributes(
        request: Maps_Fleetengine_V1_UpdateVehicleAttributesRequest, context: ServerContext
    ) async throws -> Maps_Fleetengine_V1_UpdateVehicleAttributesResponse {
        throw Self.unimplemented
    }

    func listVehicles(request: Maps_Fleetengine_V1_ListVehiclesRequest, context: ServerContext) async throws
        -> Maps_Fleetengine_V1_ListVehiclesResponse
    {
        throw Self.unimplemented
    }

    func searchVehicles(
        request: Maps_Fleetengine_V1_SearchVehiclesRequest, context: ServerContext
    ) async throws -> Maps_Fleetengine_V1_SearchVehiclesResponse {
        throw Self.unimplemented
    }

    private static let unimplemented = RPCError(
        code: .unimplemented, message: "the bench's reference serves UpdateVehicle only")
}
