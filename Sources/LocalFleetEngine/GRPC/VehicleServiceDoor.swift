import FleetEngineProtos
import GRPCCore
import ServerHTTP
import SwiftProtobuf

/// `maps.fleetengine.v1.VehicleService` over gRPC: each method reads the resource name of its
/// request and hands the request message to the core's operation, the same one the REST route
/// calls, answering with the message it returns.
@available(macOS 15.0, iOS 18.0, *)
struct VehicleServiceDoor: Maps_Fleetengine_V1_VehicleService.ServiceProtocol {
    /// Authentication and answering.
    let requests: GRPCRequests

    func createVehicle(
        request: ServerRequest<Maps_Fleetengine_V1_CreateVehicleRequest>, context: ServerContext
    ) async throws -> ServerResponse<Maps_Fleetengine_V1_Vehicle> {
        try await requests.answer(request, method: "CreateVehicle", target: { message throws(APIError) in
            (try ResourceNames.provider(ofParent: message.parent), message.vehicleID)
        }) { call, id, message in
            try await requests.core.createVehicle(call, vehicleID: id) { message.vehicle }
        }
    }

    func getVehicle(
        request: ServerRequest<Maps_Fleetengine_V1_GetVehicleRequest>, context: ServerContext
    ) async throws -> ServerResponse<Maps_Fleetengine_V1_Vehicle> {
        try await requests.answer(request, method: "GetVehicle", target: { message throws(APIError) in
            try ResourceNames.parse(message.name, collection: "vehicles")
        }) { call, id, _ in
            try requests.core.getVehicle(call, vehicleID: id)
        }
    }

    func updateVehicle(
        request: ServerRequest<Maps_Fleetengine_V1_UpdateVehicleRequest>, context: ServerContext
    ) async throws -> ServerResponse<Maps_Fleetengine_V1_Vehicle> {
        try await requests.answer(request, method: "UpdateVehicle", target: { message throws(APIError) in
            try ResourceNames.parse(message.name, collection: "vehicles")
        }) { call, id, message in
            try await requests.core.updateVehicle(call, vehicleID: id, updateMask: message.updateMask.joinedPaths) { message.vehicle }
        }
    }

    func searchVehicles(
        request: ServerRequest<Maps_Fleetengine_V1_SearchVehiclesRequest>, context: ServerContext
    ) async throws -> ServerResponse<Maps_Fleetengine_V1_SearchVehiclesResponse> {
        try await requests.answer(request, method: "SearchVehicles", target: { message throws(APIError) in
            (try ResourceNames.provider(ofParent: message.parent), "")
        }) { call, _, message in
            try requests.core.searchVehicles(call) { message }
        }
    }

    func deleteVehicle(
        request: ServerRequest<Maps_Fleetengine_V1_DeleteVehicleRequest>, context: ServerContext
    ) async throws -> ServerResponse<Google_Protobuf_Empty> {
        try await requests.answer(request, method: "DeleteVehicle", target: { message throws(APIError) in
            try ResourceNames.parse(message.name, collection: "vehicles")
        }) { call, id, _ in
            try await requests.core.deleteVehicle(call, vehicleID: id)
            return Google_Protobuf_Empty()
        }
    }

    func updateVehicleAttributes(
        request: ServerRequest<Maps_Fleetengine_V1_UpdateVehicleAttributesRequest>, context: ServerContext
    ) async throws -> ServerResponse<Maps_Fleetengine_V1_UpdateVehicleAttributesResponse> {
        try await requests.answer(request, method: "UpdateVehicleAttributes", target: { message throws(APIError) in
            try ResourceNames.parse(message.name, collection: "vehicles")
        }) { call, id, message in
            try await requests.core.updateVehicleAttributes(call, vehicleID: id) { message }
        }
    }

    func listVehicles(
        request: ServerRequest<Maps_Fleetengine_V1_ListVehiclesRequest>, context: ServerContext
    ) async throws -> ServerResponse<Maps_Fleetengine_V1_ListVehiclesResponse> {
        try await requests.answer(request, method: "ListVehicles", target: { message throws(APIError) in
            (try ResourceNames.provider(ofParent: message.parent), "")
        }) { call, _, message in
            try requests.core.listVehicles(call) { message }
        }
    }
}
