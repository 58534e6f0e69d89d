import FleetAuthServerHTTP
import NIOCore
import NIOPosix
import ServiceLifecycle

/// ``TokenServer/service(host:port:onRunning:)``: the token server on event loops of its own.
///
/// Requests are handled, and their tokens signed, on the event loop that read them (see
/// ``FleetAuthServerHTTP/EventLoopTaskExecutor``): no hop to another thread and back. The
/// loops are twice the cores, so that while a loop signs (about 0.2 ms of CPU) another can
/// read, and the server keeps its share of the cores beside other busy processes, as a server
/// with a signing thread pool of that size would.
struct TokenServerService: Service, CustomStringConvertible {
    let server: TokenServer
    let host: String
    let port: Int
    let onRunning: @Sendable (_ port: Int) async -> Void

    func run() async throws {
        let loops = MultiThreadedEventLoopGroup(numberOfThreads: 2 * System.coreCount)
        let application = server.application(host: host, port: port, eventLoopGroup: loops, onRunning: onRunning)
        var failure: (any Error)?
        do {
            try await withTaskExecutorPreference(EventLoopTaskExecutor(group: loops)) {
                try await application.run()
            }
        } catch {
            failure = error
        }
        await server.shutdown()
        try? await loops.shutdownGracefully()
        if let failure { throw failure }
    }

    /// What a service group logs of it: its address, nothing of its configuration's secrets.
    var description: String { "TokenServer(\(host):\(port))" }
}
