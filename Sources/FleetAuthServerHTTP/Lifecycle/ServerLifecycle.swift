import FleetAuthLocking

/// How a server treats slow and idle clients, and how it leaves: the settings behind
/// `--header-timeout`, `--idle-timeout`, `--shutdown-delay` and `--shutdown-timeout`, and
/// whether it is draining.
///
/// On SIGTERM a server first drains (``beginDraining()``): `/readyz` answers 503, so that a
/// balancer stops sending, and every answer closes its connection (`Connection: close`), so
/// that clients open new ones; it goes on serving for ``shutdownDelay``. Then it stops
/// accepting, answers what it has read, closes its idle connections, and exits within
/// ``shutdownTimeout`` of the signal (``DrainBeforeShutdown``).
package final class ServerLifecycle: Sendable {
    /// How long a client may take to send a request's head once it has begun (30 s by default).
    package let headerTimeout: Duration
    /// How long a connection may wait between requests before it is closed. Longer than a
    /// balancer's own (Google's keep connections to backends 600 s), so that the balancer, not
    /// the server, closes them: a request never meets a connection closing under it.
    package let idleTimeout: Duration
    /// How long the server goes on serving after SIGTERM, `/readyz` answering 503 (1 s).
    package let shutdownDelay: Duration
    /// How long after SIGTERM the process may take to exit (8 s: Cloud Run allows 10).
    package let shutdownTimeout: Duration

    private let state = Locked(DrainState())

    private struct DrainState {
        var draining = false
        var whenDraining: [@Sendable () -> Void] = []
    }

    /// The settings, each with its default when not given.
    package init(
        headerTimeout: Duration = .seconds(30), idleTimeout: Duration = .seconds(620),
        shutdownDelay: Duration = .seconds(1),
        shutdownTimeout: Duration = .seconds(8)
    ) {
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
        self.shutdownDelay = shutdownDelay
        self.shutdownTimeout = shutdownTimeout
    }

    /// Whether the server is on its way out: not ready, and closing each connection after its answer.
    package var isDraining: Bool { state.withLock { $0.draining } }

    /// Why a draining server is not ready, as `/readyz` and the token server's console say it.
    package static let drainingReason = "draining: the server is shutting down"

    /// Marks the server as on its way out, and runs what ``whenDraining(_:)`` was given.
    package func beginDraining() {
        let actions = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.draining else { return [] }
            state.draining = true
            defer { state.whenDraining = [] }
            return state.whenDraining
        }
        actions.forEach { $0() }
    }

    /// Runs `action` once, as draining begins (at once if it has begun): for what must tell
    /// its callers, such as gRPC health's `Watch` streams.
    package func whenDraining(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { state in
            if !state.draining { state.whenDraining.append(action) }
            return state.draining
        }
        if now { action() }
    }
}
