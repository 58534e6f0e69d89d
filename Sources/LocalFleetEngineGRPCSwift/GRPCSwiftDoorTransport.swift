import GRPCCore
import GRPCNIOTransportHTTP2
import LocalFleetEngine

/// The gRPC door on grpc-swift's own HTTP/2 transport (`HTTP2ServerTransport.Posix`, its
/// tasks on Swift's global executor, as a maintainer would serve grpc-swift): the dependency
/// the door's own transport is measured beside in `fleetauth-bench fleet-engine`, and the way
/// `GRPCUpdatePathsTests` sends every call through grpc-swift's server.
package struct GRPCSwiftDoorTransport: GRPCDoorTransportMaker {
    /// A maker of grpc-swift's transport.
    package init() {}

    @available(macOS 15.0, iOS 18.0, *)
    package func transport(host: String, port: Int, maximumMessageSize: Int) -> any GRPCDoorTransport {
        HTTP2ServerTransport.Posix(
            address: .ipv4(host: host, port: port), transportSecurity: .plaintext,
            config: .defaults { $0.rpc.maxRequestPayloadSize = maximumMessageSize })
    }
}

@available(macOS 15.0, iOS 18.0, *)
extension HTTP2ServerTransport.Posix: GRPCDoorTransport {
    /// The port of the IPv4 address it listens on.
    package var listeningPort: Int {
        get async throws {
            guard let port = try await listeningAddress.ipv4?.port else {
                throw RPCError(code: .unavailable, message: "the transport listens on no IPv4 port")
            }
            return port
        }
    }
}
