import FleetAuthLocking
import Logging
import PostgresNIO

/// Whether an answer PostgreSQL gave may still be served from memory: a generation that moves on
/// with every change, and `nil` while changes cannot be heard.
///
/// Changes are heard two ways. Tables whose triggers `NOTIFY` ``channel`` in the transaction that
/// changes them tell every process listening, this one included, within the time a notification
/// takes; and this process's own commits move the generation on before they return
/// (``changed()``), so it never serves what it has just changed. The listening connection is
/// one of the pool's, taken on the first read that may be served from memory
/// (``startListening()``) and held until ``stop()``: a database nobody reads so holds no
/// connection for it. While it is down nothing is served from memory, and once it is back the
/// generation moves on, dropping everything remembered before.
///
/// Hearing is also held to a lease: memory serves only while a heartbeat asked on the listening
/// connection at most ``lease`` ago has been answered. PostgreSQL sends a listening session
/// the notifications of every transaction that committed before it reads its next statement,
/// and each is taken in (the generation moved on) on the connection's event loop as it is
/// read, before the answers that follow it; so an answered heartbeat proves that every change
/// committed before it was asked has been heard. Each heartbeat waits for the one before, so
/// the lease holds while PostgreSQL answers within about 35 ms (twice the round trip and the
/// interval inside the lease); farther away, or on a machine too busy to ask on time, reads
/// go to the database, as they must. A connection cut off without being closed (a network
/// partition, a server that hangs) so serves nothing remembered from ``lease`` after its last
/// answer, where waiting for the heartbeat to fail would take ``heartbeatInterval`` and
/// ``heartbeatLimit``.
final class PostgresChangeFeed: Sendable {
    /// The channel the triggers notify.
    static let channel = "fleetauth_changes"

    private struct State {
        var generation: UInt64 = 0
        var isListening = false
        /// When the latest heartbeat that was answered (or the `LISTEN`) was asked.
        var confirmedAt = ContinuousClock.Instant.now

        /// Whether changes are heard now: listening, under a lease still running.
        var hears: Bool { isListening && ContinuousClock.now - confirmedAt <= PostgresChangeFeed.lease }
    }

    private let state = Locked(State())
    private let clients: PostgresClients
    private let logger: Logger
    /// The listening task, once started; `.some(nil)` once stopped.
    private let listening = Locked<Task<Void, Never>??>(nil)

    /// A feed that listens through the current client of `clients` once started.
    init(clients: PostgresClients, logger: Logger) {
        self.clients = clients
        self.logger = logger
    }

    /// Starts listening, unless it has started (or stopped) already.
    func startListening() {
        listening.withLock { task in
            guard task == nil else { return }
            task = .some(Task { [self] in await listen() })
        }
    }

    /// Stops listening, for good, and waits until the listening connection is given back, or
    /// for ``heartbeatLimit`` at most: a connection the pool is still trying to open, or one
    /// that stopped answering, must not hold a shutdown.
    func stop() async {
        let task = listening.withLock { task -> Task<Void, Never>? in
            defer { task = .some(nil) }
            return task ?? nil
        }
        guard let task else { return }
        task.cancel()
        _ = await outcome(of: Task { await task.value }, within: Self.heartbeatLimit)
    }

    /// The generation under which an answer read now may be remembered and served again, or
    /// `nil` while changes cannot be heard.
    var generation: UInt64? {
        state.withLock { $0.hears ? $0.generation : nil }
    }

    /// Something changed: what was remembered before is stale.
    func changed() {
        state.withLock { $0.generation &+= 1 }
    }

    /// What the feed is doing, in words, for `/healthz`.
    var condition: String {
        let started = listening.withLock { $0 != nil }
        if !started { return "not started: it starts with the first read that may be served from memory" }
        let (isListening, hears) = state.withLock { ($0.isListening, $0.hears) }
        if hears { return "listening" }
        return isListening
            ? "listening, but its heartbeat is late: nothing is served from memory until it answers"
            : "not listening: nothing is served from memory until it is again"
    }

    /// How long an answered heartbeat lets memory serve: the most a change made elsewhere can
    /// go unheard by a process that still serves from memory (the revocation bound).
    static let lease = Duration.milliseconds(100)
    /// How often the listening connection is asked whether it still answers: often enough that
    /// answers renew the lease before it runs out.
    static let heartbeatInterval = Duration.milliseconds(25)
    /// How long a heartbeat may go unanswered before the connection is given up for another.
    static let heartbeatLimit = Duration.seconds(1)
    /// The heartbeat's statement, which names it in `pg_stat_activity`.
    static let heartbeatStatement: PostgresQuery = "SELECT 'fleetauth change feed heartbeat'"

    /// Listens on a connection of the client until cancelled, taking another (after 50 ms,
    /// doubling up to 1 s) whenever the connection is lost or stops answering.
    private func listen() async {
        var delay = Duration.milliseconds(50)
        while !Task.isCancelled {
            do {
                try await clients.current.withConnection { connection in
                    try await connection.listen(on: Self.channel) { notifications in
                        // Heard on the connection's event loop as each notification is read, so
                        // before the answer to any heartbeat asked after it was sent: no answer
                        // renews the lease ahead of a change it should bring.
                        let hearing = connection.addListener(channel: Self.channel) { _, _ in self.changed() }
                        defer { hearing.stop() }
                        // Its answer shows that listener in place: hearing starts from when it was asked.
                        let asked = ContinuousClock.now
                        try await self.askForAnswer(on: connection)
                        state.withLock { state in
                            state.generation &+= 1
                            state.isListening = true
                            state.confirmedAt = asked
                        }
                        delay = .milliseconds(50)
                        // Deaf from the moment either ends, before the group waits for the other.
                        defer { self.stopServingFromMemory() }
                        try await withThrowingTaskGroup(of: Void.self) { group in
                            // Read, as the listener above has them; it ends when the connection does.
                            group.addTask { for try await _ in notifications {} }
                            group.addTask { try await self.heartbeat(on: connection) }
                            defer { group.cancelAll() }
                            try await group.next()
                        }
                    }
                }
            } catch {
                if !Task.isCancelled {
                    logger.warning(
                        "not listening for database changes; serving nothing from memory",
                        metadata: ["error": "\(String(reflecting: type(of: error)))"])
                }
            }
            stopServingFromMemory()
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, .seconds(1))
        }
    }

    /// Nothing is heard from now on, until listening starts again: nothing remembered is served.
    private func stopServingFromMemory() {
        state.withLock { state in
            state.isListening = false
            state.generation &+= 1
        }
    }

    /// Asks `connection` to answer every ``heartbeatInterval``, each answer renewing the lease
    /// from when it was asked.
    private func heartbeat(on connection: PostgresConnection) async throws {
        while true {
            try await Task.sleep(for: Self.heartbeatInterval)
            let asked = ContinuousClock.now
            try await askForAnswer(on: connection)
            state.withLock { $0.confirmedAt = max($0.confirmedAt, asked) }
        }
    }

    /// Sends `connection` the heartbeat's statement and waits for its answer; closes the
    /// connection, and throws, when the answer takes longer than ``heartbeatLimit``. The query
    /// runs in a task of its own and is left behind at the limit: one written as the
    /// connection closed is never answered.
    private func askForAnswer(on connection: PostgresConnection) async throws {
        let query = Task { _ = try await connection.query(Self.heartbeatStatement, logger: logger) }
        guard let answer = await outcome(of: query, within: Self.heartbeatLimit) else {
            try Task.checkCancellation()
            Task { try? await connection.close() }
            throw HeartbeatMissed()
        }
        try answer.get()
    }

    /// The listening connection did not answer its heartbeat in time.
    private struct HeartbeatMissed: Error {}
}

/// The channel a schema's triggers notify for ``ServerDatabase/first(_:)`` to hear its changes.
package enum PostgresChangeSignal {
    /// The channel's name.
    package static let channel = PostgresChangeFeed.channel
}
