import Locking
import Logging
import NIOPosix
import PostgresNIO

/// The PostgresNIO client that connections are lent from, and its renewal after an outage.
///
/// PostgresNIO's pool, once it fails to connect, tries again after a backoff that grows by a
/// quarter each time, up to a minute: after an outage of ten seconds its next try may come
/// seconds after the database is back. So once a loan finds no connection in time (``lost()``),
/// a probe opens a single connection of its own every ``probeInterval`` (a refused one fails at
/// once, where a pool's request would wait out its backoff). While the probe fails, the
/// database is down (``isDown``) and loans fail at once. Once a probe's connection answers, a
/// fresh client becomes ``current``; the one before is shut down, and a borrower still waiting
/// in its pool fails and borrows again from the new one.
final class PostgresClients: Sendable {
    private struct State {
        var current: PostgresClient
        var currentRun: Task<Void, Never>
        /// The runs of clients replaced or given up, ending once their loans have.
        var retiredRuns: [Task<Void, Never>] = []
        var probe: Task<Void, Never>?
        var isDown = false
        var isClosed = false
    }

    /// How often the probe tries a fresh client while the database is down, and how long each
    /// try may take.
    static let probeInterval = Duration.milliseconds(250)
    static let probeLimit = Duration.seconds(2)
    /// How long ``shutdown()`` waits for each client's connections to close.
    static let shutdownLimit = Duration.seconds(2)

    private let configuration: PostgresClient.Configuration
    private let probeConfiguration: PostgresConnection.Configuration
    private let logger: Logger
    private let state: Locked<State>

    /// Starts a client of `configuration`; the probe connects with `probe`.
    init(configuration: PostgresClient.Configuration, probe: PostgresConnection.Configuration, logger: Logger) {
        self.configuration = configuration
        self.probeConfiguration = probe
        self.logger = logger
        let (client, run) = Self.start(configuration, logger: logger)
        state = Locked(State(current: client, currentRun: run))
    }

    /// The client to borrow from now.
    var current: PostgresClient {
        state.withLock { $0.current }
    }

    /// Whether the database was found unreachable and no fresh client has reached it since.
    var isDown: Bool {
        state.withLock { $0.isDown }
    }

    /// A loan found the database unreachable, or its connection lost: starts the probe, unless
    /// it runs already.
    func lost() {
        state.withLock { state in
            guard state.probe == nil, !state.isClosed else { return }
            state.probe = Task { [self] in await probe() }
        }
    }

    /// Stops the probe and every client, waiting for each at most ``shutdownLimit``: a loan
    /// that never ends must not hold the process.
    func shutdown() async {
        let (probe, runs) = state.withLock { state -> (Task<Void, Never>?, [Task<Void, Never>]) in
            state.isClosed = true
            defer { state.probe = nil }
            return (state.probe, [state.currentRun] + state.retiredRuns)
        }
        probe?.cancel()
        await probe?.value
        for run in runs {
            run.cancel()
            _ = await outcome(of: Task { await run.value }, within: Self.shutdownLimit)
        }
    }

    /// Opens a connection every ``probeInterval`` until one answers, then makes a fresh client
    /// current.
    private func probe() async {
        while !Task.isCancelled {
            let check = Task {
                let connection = try await PostgresConnection.connect(
                    on: MultiThreadedEventLoopGroup.singleton.any(), configuration: probeConfiguration, id: 0, logger: logger)
                defer { Task { try? await connection.close() } }
                _ = try await connection.query("SELECT 1", logger: logger)
            }
            let answered = if case .success = await outcome(of: check, within: Self.probeLimit) { true } else { false }
            let replaced = state.withLock { state -> Task<Void, Never>?? in
                guard answered, !state.isClosed else {
                    state.isDown = true
                    return nil
                }
                let (client, run) = Self.start(configuration, logger: logger)
                defer { (state.current, state.currentRun, state.isDown, state.probe) = (client, run, false, nil) }
                state.retiredRuns.append(state.currentRun)
                return .some(state.currentRun)
            }
            guard let replaced else {
                try? await Task.sleep(for: Self.probeInterval)
                continue
            }
            logger.info("PostgreSQL answers again; connections are lent from a fresh pool")
            replaced?.cancel()
            return
        }
    }

    /// A client of `configuration`, running.
    private static func start(_ configuration: PostgresClient.Configuration, logger: Logger) -> (PostgresClient, Task<Void, Never>) {
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        return (client, Task { await client.run() })
    }
}
