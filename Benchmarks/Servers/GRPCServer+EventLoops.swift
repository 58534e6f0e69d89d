import FleetAuthServerHTTP
import GRPCCore

@available(macOS 15.0, iOS 18.0, *)
extension GRPCServer {
    /// Serves with every task of the server — each connection's, each call's — preferring NIO's
    /// event loops (``FleetAuthServerHTTP/EventLoopTaskExecutor``): a call runs on the loop that read it
    /// instead of hopping to Swift concurrency's pool and back for each message read and
    /// written. grpc-swift's own transport answered UpdateVehicle with nothing behind it for a
    /// sixth less CPU per call so; it is how `grpc-floors` serves it. (The engine's transport,
    /// `UnaryHTTP2ServerTransport`, starts each call as a task of its own.)
    func serveOnEventLoops() async throws {
        try await withTaskExecutorPreference(EventLoopTaskExecutor()) {
            try await serve()
        }
    }
}
