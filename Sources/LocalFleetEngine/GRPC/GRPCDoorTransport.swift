import GRPCCore

/// A grpc-swift server transport the gRPC door serves on, which says the port it listens on.
/// The door's own is ``UnaryHTTP2ServerTransport``.
@available(macOS 15.0, iOS 18.0, *)
package protocol GRPCDoorTransport: ServerTransport {
    /// The port it listens on, once it does.
    var listeningPort: Int { get async throws }
}

@available(macOS 15.0, iOS 18.0, *)
extension UnaryHTTP2ServerTransport: GRPCDoorTransport {}

/// Makes a transport for the gRPC door other than its own: how `fleetauth-bench fleet-engine`
/// serves the engine on grpc-swift's own transport in the same run, to measure what the door's
/// transport pays for (docs/architecture.md, the ledger). Such a transport serves every call
/// through grpc-swift's server, none on the event loop, and speaks plaintext.
package protocol GRPCDoorTransportMaker: Sendable {
    /// A transport that will listen on `host` and `port` (0 picks a free one), refusing request
    /// messages larger than `maximumMessageSize` bytes.
    @available(macOS 15.0, iOS 18.0, *)
    func transport(host: String, port: Int, maximumMessageSize: Int) -> any GRPCDoorTransport
}
