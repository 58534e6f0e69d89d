import Logging
import ServiceLifecycle
import UnixSignals

/// The service that reloads what a server reads from files when the process gets SIGHUP
/// (`kill -HUP`, `systemctl reload`), with no restart: the TLS certificate, the token server's key files.
package struct HangUpReload: Service {
    private let reload: @Sendable () async -> Void
    private let logger: Logger

    /// Calls `reload` on each SIGHUP until graceful shutdown.
    package init(logger: Logger, reload: @escaping @Sendable () async -> Void) {
        self.logger = logger
        self.reload = reload
    }

    /// Waits for SIGHUP, reloading on each, until graceful shutdown.
    package func run() async throws {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            logger.notice("SIGHUP: reloading")
            await reload()
        }
    }
}
