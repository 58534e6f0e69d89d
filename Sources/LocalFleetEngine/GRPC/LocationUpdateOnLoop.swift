import FleetAuthServerHTTP
import FleetEngineProtos
import GRPCCore
import Logging
import SwiftProtobuf

/// A driver app's location update over gRPC (VehicleService's UpdateVehicle, DeliveryService's
/// UpdateDeliveryVehicle) answered on the event loop that read the call (see
/// ``UnaryMethodOnLoop``): the same operation as the service table's, checked and accepted
/// where the call was read and answered once the update is saved, as the REST door's
/// ``LocationUpdateRoute`` answers it. A request that does not decode, or whose token's key must
/// first be fetched, is left to grpc-swift's server.
@available(macOS 15.0, iOS 18.0, *)
struct LocationUpdateOnLoop<Request: LocationUpdateRequest>: UnaryMethodOnLoop {
    let core: FleetEngineCore
    /// The door's log, with the method named as ``GRPCCallRunner`` names it.
    let logger: Logger

    init(_: Request.Type, core: FleetEngineCore, logger: Logger) {
        self.core = core
        var logger = logger
        logger[metadataKey: "method"] = "\(Request.Resource.updateMethod)"
        self.logger = logger
    }

    var fullyQualifiedMethod: String { Request.fullyQualifiedMethod }

    func answer(metadata: Metadata, message: [UInt8], respond: @escaping @Sendable (Result<[UInt8], RPCError>) -> Void)
        -> Bool
    {
        guard let request = try? Request(serializedBytes: message) else { return false }
        let update = FleetEngineCore.UpdateWithoutWaiting<Request.Resource>(
            door: .grpc, authorization: metadata[stringValues: "authorization"].map { $0 },
            logPath: Request.Resource.updateMethod, logger: logger,
            target: { () throws(APIError) in
                try ResourceNames.parse(request.resourceName, collection: Request.Resource.collection)
            },
            updateMask: request.updateMaskPaths, readBody: { request.resource },
            recordedBody: { message.count <= RequestBody.maximumKeptBytes ? .message(request.resource) : nil })
        return core.updateWithoutWaiting(update) { outcome in
            respond(
                outcome
                    .mapError { RPCError(code: $0.rpcErrorCode, message: $0.rpcErrorMessage) }
                    .flatMap { resource in
                        Result { try resource.serializedBytes() }.mapError { _ in
                            RPCError(code: .internalError, message: APIError.internalMessage)
                        }
                    })
        }
    }
}
