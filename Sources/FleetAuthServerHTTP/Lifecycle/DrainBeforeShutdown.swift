import Logging
import ServiceLifecycle

/// The service that makes a server drain before it stops: put it after the server in a
/// `ServiceGroup`, which shuts services down last first. On graceful shutdown it marks the
/// server as draining and serves on for the lifecycle's `shutdownDelay`; only then does the
/// group stop the server, which stops accepting and answers what it has read.
package struct DrainBeforeShutdown: Service {
    private let lifecycle: ServerLifecycle
    private let logger: Logger
    private let onDrain: @Sendable () -> Void

    /// Drains the server `lifecycle` describes, calling `onDrain` as draining begins.
    package init(_ lifecycle: ServerLifecycle, logger: Logger, onDrain: @escaping @Sendable () -> Void = {}) {
        self.lifecycle = lifecycle
        self.logger = logger
        self.onDrain = onDrain
    }

    /// Waits for graceful shutdown, then drains for the delay.
    package func run() async throws {
        try? await gracefulShutdown()
        lifecycle.beginDraining()
        onDrain()
        logger.notice(
            "draining: /readyz answers 503 and answers close their connections",
            metadata: [
                "shutdownDelay": "\(lifecycle.shutdownDelay)", "shutdownTimeout": "\(lifecycle.shutdownTimeout)",
            ])
        try? await Task.sleep(for: lifecycle.shutdownDelay)
        logger.notice("no longer accepting connections; answering what was read")
    }
}
