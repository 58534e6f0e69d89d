import FleetAuthLocking
import Logging
import NIOPosix
import PostgresNIO

/// The PostgresNIO client that connections are lent from, and its renewal after an outage.
///
/// PostgresNIO's pool, once it fails to connect, tries again after a backoff that grows by a
/// quarter each time, up to a minute, and meanwhile keeps its borrowers waiting: after an
/// outage of ten seconds its next try may come seconds after the database is back. So once a
/// loan has waited half a second for a connection, or lost the one it had (``lost()``), a probe
/// opens a single connection of its own every ``probeInterval`` (a refused one fails at once,
/// where a pool's request would wait out its backoff). While the probe fails, the database is
/// down (``isDown``): loans fail at once, and the pool is replaced, so that its waiting
/// borrowers fail too. Once a probe's connection answers after that, a fresh client becomes
/// ``current``; the one before is shut down, and a borrower still waiting in its pool borrows
/// again from the new one.
final class PostgresClients: Sendable {
    private struct State {
        var current: PostgresClient
        var currentRun: Task<Void, Never>
        /// The runs of clients replaced or given up, ending once their loans have.
        var retiredRuns: Set<Task<Void, Never>> = []
        var probe: Task<Void, Never>?
        var isDown = false
        var isClosed = false
    }

    /// How often the probe tries a fresh client while the database is down.
    static let probeInterval = Duration.milliseconds(250)
    /// How long ``shutdown()`` waits for each client's connections to close.
    static let shutdownLimit = Duration.seconds(2)

    private let configuration: PostgresClient.Configuration
    private let probeConfiguration: PostgresConnection.Configuration
    /// How long each try of the probe may take: as long as a statement may wait (the URL's
    /// `wait_limit`, 4 s by default), since a database slower than that fails statements
    /// anyway. By default that is long enough for a connection on a machine too busy to answer
    /// at once (2.5 s found PostgreSQL "down" under the whole test suite on two busy cores), and
    /// short enough that a database cut off without a word (a partition) is found down within
    /// 4.5 s of a borrower's wait, inside the 5 s a request may take.
    private let probeLimit: Duration
    private let logger: Logger
    private let state: Locked<State>

    /// Starts a client of `configuration`; the probe connects with `probe`, each try within
    /// `probeLimit`.
    init(
        configuration: PostgresClient.Configuration, probe: PostgresConnection.Configuration, probeLimit: Duration,
        logger: Logger
    ) {
        self.configuration = configuration
        self.probeConfiguration = probe
        self.probeLimit = probeLimit
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

    /// The client to borrow from now, or `nil` while the database is down.
    var lendable: PostgresClient? {
        state.withLock { $0.isDown ? nil : $0.current }
    }

    /// A loan waited long for a connection, or lost its connection: starts the probe, unless it
    /// runs already.
    func lost() {
        state.withLock { state in
            guard state.probe == nil, !state.isClosed else { return }
            state.probe = Task { [self] in await probe() }
        }
    }

    /// Stops the probe and every client, waiting for them at most ``shutdownLimit`` in all: a
    /// loan that never ends must not hold the process.
    func shutdown() async {
        let (probe, runs) = state.withLock { state -> (Task<Void, Never>?, [Task<Void, Never>]) in
            state.isClosed = true
            defer { state.probe = nil }
            return (state.probe, [state.currentRun] + Array(state.retiredRuns))
        }
        probe?.cancel()
        await probe?.value
        for run in runs { run.cancel() }
        _ = await outcome(of: Task { for run in runs { await run.value } }, within: Self.shutdownLimit)
    }

    /// Opens a connection every ``probeInterval`` until one answers, then makes a fresh client
    /// current.
    private func probe() async {
        while !Task.isCancelled {
            let answered = Self.databaseAnswered(await Self.ask(probeConfiguration, within: probeLimit, logger: logger))
            // A fresh client when the database is found down (the old pool's waiting borrowers
            // then fail at once, and, trying again, find it down, instead of waiting out their
            // limit), and when it answers again after that. A database that answered the
            // probe at once leaves the pool as it is: a slow loan on a busy machine, or one
            // connection ended, is no reason to close the others.
            let (replaced, isDown) = state.withLock { state -> (Task<Void, Never>?, Bool) in
                if answered { state.probe = nil }
                guard !state.isClosed, answered == state.isDown else { return (nil, !answered) }
                let (client, run) = Self.start(configuration, logger: logger)
                defer { (state.current, state.currentRun, state.isDown) = (client, run, !answered) }
                state.retiredRuns.insert(state.currentRun)
                return (state.currentRun, !answered)
            }
            if let replaced {
                replaced.cancel()
                // Forgotten once its connections are closed: only runs still ending are kept.
                Task {
                    await replaced.value
                    self.state.withLock { _ = $0.retiredRuns.remove(replaced) }
                }
            }
            guard isDown else {
                if replaced != nil { logger.info("PostgreSQL answers; connections are lent from a fresh pool") }
                return
            }
            try? await Task.sleep(for: Self.probeInterval)
        }
    }

    /// Opens a single connection of `configuration` and runs `SELECT 1` on it, within `limit`
    /// (`nil`: no answer in time); the connection is closed whatever the outcome.
    static func ask(_ configuration: PostgresConnection.Configuration, within limit: Duration, logger: Logger) async
        -> Result<Void, any Error>?
    {
        let check = Task {
            let connection = try await PostgresConnection.connect(
                on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration, id: 0, logger: logger)
            defer { Task { try? await connection.close() } }
            // Bounded of its own, so that the connection is closed even when it never answers.
            let query = Task { _ = try await connection.query("SELECT 1", logger: logger) }
            guard let answer = await outcome(of: query, within: limit) else { throw CancellationError() }
            try answer.get()
        }
        return await outcome(of: check, within: limit)
    }

    /// Whether a probe's `result` (`nil`: no result within the limit) shows a database that
    /// answers: a connection that answered, or a server that refused it in words (too many
    /// clients, a password refused) is there; a refused or silent connection is not, nor a
    /// server shutting down or starting up (SQLSTATE class 57P).
    private static func databaseAnswered(_ result: Result<Void, any Error>?) -> Bool {
        switch result {
        case .success: true
        case .failure(let error as PSQLError):
            error.code == .server && !(error.serverInfo?[.sqlState] ?? "").hasPrefix("57P")
        case .failure, nil: false
        }
    }

    /// A client of `configuration`, running.
    private static func start(_ configuration: PostgresClient.Configuration, logger: Logger) -> (
        PostgresClient, Task<Void, Never>
    ) {
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        return (client, Task { await client.run() })
    }
}
