import Logging
import ServiceLifecycle

/// A service running in a service group of its own on the port it picked, until ``stop()``:
/// how `demo`, the benchmarks and the tests run servers in-process.
///
/// It stops by graceful shutdown, never by cancelling the serving task: a Hummingbird server
/// cancelled while a client connects traps on the connection it accepted but never served
/// (swift-nio's `NIOAsyncChannel` asks every accepted channel to be run or finished).
package struct RunningService: Sendable {
    /// The port the service listens on.
    package let port: Int
    private let group: ServiceGroup
    private let task: Task<Void, Never>

    /// Runs the service `make` builds (given the callback it calls with its port once it
    /// listens) and waits for the port; throws if the service ends before it listens.
    package static func start(logger: Logger, _ make: (@escaping @Sendable (Int) async -> Void) -> any Service)
        async throws -> RunningService
    {
        let (ports, sink) = AsyncStream.makeStream(of: Int.self)
        let group = ServiceGroup(services: [make { sink.yield($0) }], gracefulShutdownSignals: [], logger: logger)
        let task = Task {
            do {
                try await group.run()
            } catch {
                logger.error("an in-process server stopped", metadata: ["error": "\(error)"])
            }
            sink.finish()
        }
        guard let port = await ports.first(where: { _ in true }) else {
            throw ServiceEndedBeforeListening()
        }
        return RunningService(port: port, group: group, task: task)
    }

    /// Runs the service `make` builds while `body` runs with its port, then stops it, whether
    /// `body` returned or threw.
    package static func with<Result: Sendable>(
        logger: Logger,
        _ make: (@escaping @Sendable (Int) async -> Void) -> any Service,
        _ body: (Int) async throws -> Result
    ) async throws -> Result {
        let running = try await start(logger: logger, make)
        do {
            let result = try await body(running.port)
            await running.stop()
            return result
        } catch {
            await running.stop()
            throw error
        }
    }

    /// Shuts the service down gracefully (every accepted request answered) and waits for it.
    package func stop() async {
        await group.triggerGracefulShutdown()
        await task.value
    }
}

/// An in-process server ended before it listened; the log says why.
package struct ServiceEndedBeforeListening: Error, CustomStringConvertible {
    package var description: String { "an in-process server ended before it listened (see the log above)" }
}
