import FleetEngineProtos
import GRPCCore
import Logging
import ServerHTTP
import SwiftProtobuf

/// VehicleService's UpdateVehicle answered on the event loop that read the call (see
/// ``UnaryMethodOnLoop``): the same operation as ``VehicleServiceMethods``' UpdateVehicle,
/// checked and accepted where the call was read and answered once the update is saved, as the
/// REST door's ``VehicleUpdateRoute`` answers it. A request that does not decode, or whose
/// token's key must first be fetched, is left to grpc-swift's server.
@available(macOS 15.0, iOS 18.0, *)
struct VehicleUpdateOnLoop: UnaryMethodOnLoop {
    let core: FleetEngineCore
    /// The door's log, with the method named as ``GRPCRequests`` names it.
    let logger: Logger

    init(core: FleetEngineCore, logger: Logger) {
        self.core = core
        var logger = logger
        logger[metadataKey: "method"] = "UpdateVehicle"
        self.logger = logger
    }

    var fullyQualifiedMethod: String { Maps_Fleetengine_V1_VehicleService.Method.UpdateVehicle.descriptor.fullyQualifiedMethod }

    func answer(metadata: Metadata, message: [UInt8], respond: @escaping @Sendable (Result<[UInt8], RPCError>) -> Void) -> Bool {
        guard let request = try? Maps_Fleetengine_V1_UpdateVehicleRequest(serializedBytes: message) else { return false }
        let update = FleetEngineCore.UpdateWithoutWaiting(
            door: .grpc, authorization: metadata[stringValues: "authorization"].map { $0 }, logPath: "UpdateVehicle", logger: logger,
            target: { () throws(APIError) in
                let (provider, id) = try ResourceNames.parse(request.name, collection: "vehicles")
                return (provider, id)
            },
            updateMask: request.updateMask.joinedPaths, readBody: { request.vehicle })
        return core.updateVehicleWithoutWaiting(update) { outcome in
            respond(outcome
                .mapError { RPCError(code: $0.rpcErrorCode, message: $0.rpcErrorMessage) }
                .flatMap { vehicle in
                    Result { try vehicle.serializedBytes() }.mapError { _ in RPCError(code: .internalError, message: APIError.internalMessage) }
                })
        }
    }
}
