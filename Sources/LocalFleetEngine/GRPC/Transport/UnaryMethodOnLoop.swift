import GRPCCore

/// A unary method the door's transport answers on the event loop that read its call, without a
/// task and without grpc-swift's server, when it can: the engine's busiest call (UpdateVehicle).
/// grpc-swift's server answers every call such a method leaves, and every other method.
@available(macOS 15.0, iOS 18.0, *)
package protocol UnaryMethodOnLoop: Sendable {
    /// The method, `service/method` (e.g. `maps.fleetengine.v1.VehicleService/UpdateVehicle`).
    var fullyQualifiedMethod: String { get }

    /// Answers the call of `metadata` and its one request `message` through `respond`, from
    /// any thread: the answer message's bytes, or the error whose status refuses the call. Called on the
    /// event loop that read the call.
    ///
    /// - Returns: `false`, having done nothing, to leave the call to grpc-swift's server.
    func answer(metadata: Metadata, message: [UInt8], respond: @escaping @Sendable (Result<[UInt8], RPCError>) -> Void)
        -> Bool
}
