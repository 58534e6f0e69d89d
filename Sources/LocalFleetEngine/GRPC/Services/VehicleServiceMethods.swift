import FleetEngineProtos
import GRPCCore
import SwiftProtobuf

/// `maps.fleetengine.v1.VehicleService` over gRPC: each method hands its request message to the
/// core's operation, the same one the REST route calls.
@available(macOS 15.0, iOS 18.0, *)
enum VehicleServiceMethods {
    private typealias Method = Maps_Fleetengine_V1_VehicleService.Method

    /// The service's methods.
    static let all: [any GRPCMethodRow] = [
        GRPCMethod(Method.CreateVehicle.self, .creation(parent: \.parent, id: \.vehicleID), body: .field(\.vehicle)) {
            core, call, id, message in
            try await core.createVehicle(call, vehicleID: id) { message.vehicle }
        },
        GRPCMethod(Method.GetVehicle.self, .resource(\.name, in: "vehicles")) { core, call, id, _ in
            try core.getVehicle(call, vehicleID: id)
        },
        GRPCMethod(Method.UpdateVehicle.self, .resource(\.name, in: "vehicles"), body: .field(\.vehicle)) {
            core, call, id, message in
            try await core.updateVehicle(call, vehicleID: id, updateMask: message.updateMask.joinedPaths) {
                message.vehicle
            }
        },
        GRPCMethod(Method.SearchVehicles.self, .collection(\.parent), body: .whole) { core, call, _, message in
            try core.searchVehicles(call) { message }
        },
        GRPCMethod(Method.DeleteVehicle.self, .resource(\.name, in: "vehicles")) { core, call, id, _ in
            try await core.deleteVehicle(call, vehicleID: id)
            return Google_Protobuf_Empty()
        },
        GRPCMethod(Method.UpdateVehicleAttributes.self, .resource(\.name, in: "vehicles"), body: .whole) {
            core, call, id, message in
            try await core.updateVehicleAttributes(call, vehicleID: id) { message }
        },
        GRPCMethod(Method.ListVehicles.self, .collection(\.parent)) { core, call, _, message in
            try core.listVehicles(call) { message }
        },
    ]
}

extension Maps_Fleetengine_V1_VehicleService.Method.CreateVehicle: UnaryRPC {}
extension Maps_Fleetengine_V1_VehicleService.Method.GetVehicle: UnaryRPC {}
extension Maps_Fleetengine_V1_VehicleService.Method.UpdateVehicle: UnaryRPC {}
extension Maps_Fleetengine_V1_VehicleService.Method.SearchVehicles: UnaryRPC {}
extension Maps_Fleetengine_V1_VehicleService.Method.DeleteVehicle: UnaryRPC {}
extension Maps_Fleetengine_V1_VehicleService.Method.UpdateVehicleAttributes: UnaryRPC {}
extension Maps_Fleetengine_V1_VehicleService.Method.ListVehicles: UnaryRPC {}
