import FleetAuthLocking
import Foundation
import Logging
import ServiceLifecycle

/// How a server process runs its services: until SIGTERM or SIGINT, then draining
/// (``DrainBeforeShutdown``), then a graceful shutdown, all within the lifecycle's
/// `shutdownTimeout` of the signal. A shutdown that overruns it is cut short: the process logs
/// what is left and exits 0, as a platform would kill it anyway (Cloud Run after 10 s).
///
/// For processes only: a server run in-process (the tests, `demo`) uses ``RunningService``.
package enum ServerProcess {
    /// Runs `services` (shut down last first) until a signal, and drains before they stop; on
    /// SIGHUP, reads `tls`'s files again and calls `onHangUp` (the token server's key files).
    package static func run(
        _ services: [any Service], lifecycle: ServerLifecycle, tls: TLSCertificates? = nil, logger: Logger,
        onHangUp: (@Sendable () async -> Void)? = nil
    ) async throws {
        let finished = Locked(false)
        let drain = DrainBeforeShutdown(lifecycle, logger: logger) {
            Task.detached {
                try? await Task.sleep(for: lifecycle.shutdownTimeout)
                guard !finished.withLock({ $0 }) else { return }
                logger.error(
                    "shutdown did not finish within the shutdown timeout; exiting with requests unanswered",
                    metadata: [
                        "shutdownTimeout": "\(lifecycle.shutdownTimeout)"
                    ])
                exit(0)
            }
        }
        defer { finished.withLock { $0 = true } }
        let reload =
            tls == nil && onHangUp == nil
            ? nil
            : HangUpReload(logger: logger) {
                tls?.reload(logger: logger)
                await onHangUp?()
            }
        let group = ServiceGroup(
            services: services + (reload.map { [$0] } ?? []) + [drain], gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger)
        try await group.run()
    }
}
