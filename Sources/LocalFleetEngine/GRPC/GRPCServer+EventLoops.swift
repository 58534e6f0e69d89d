import GRPCCore
import ServerHTTP

@available(macOS 15.0, iOS 18.0, *)
extension GRPCServer {
    /// Serves with every task of the server — each connection's, each call's — preferring NIO's
    /// event loops (``ServerHTTP/EventLoopTaskExecutor``): a call runs on the loop that read it
    /// instead of hopping to Swift concurrency's pool and back for each message read and
    /// written. grpc-swift answering UpdateVehicle with nothing behind it cost a sixth less CPU per
    /// call so (`fleetauth-bench grpc-floors`). Nothing the engine's operations do blocks a
    /// thread: the store commits through SQLKit's thread pool.
    package func serveOnEventLoops() async throws {
        try await withTaskExecutorPreference(EventLoopTaskExecutor()) {
            try await serve()
        }
    }
}
