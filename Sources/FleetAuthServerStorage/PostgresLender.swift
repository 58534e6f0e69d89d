import Foundation
import Logging
import NIOSSL
import PostgresKit
import PostgresNIO
import SQLKit

/// Lends connections from PostgresNIO's `PostgresClient` pool (the current one of
/// ``PostgresClients``), each loan bounded by `limit` (a retry included; see ``PostgresLoan``):
/// with the database stopped or cut off, a caller learns so within the limit as
/// ``DatabaseUnavailable``, where the pool alone would keep it waiting for as long as it keeps
/// trying to connect; and once a loan has found it so, at once, until it answers again.
///
/// A statement whose connection was closed under it before it could take effect (the server
/// restarted, or ended the connection) runs again on another connection (up to ``attempts``
/// loans in all, within the limit): the pool learns of a closed connection only when it next
/// reads from it, so the first callers after a restart are often lent dead ones.
struct PostgresLender: SQLConnectionLender {
    let clients: PostgresClients
    let limit: Duration

    func withConnection<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result)
        async throws -> Result
    {
        let deadline = ContinuousClock.now + limit
        for _ in 1..<Self.attempts {
            do {
                return try await lendOnce(body, until: deadline)
            } catch let failure as DatabaseUnavailable where failure.mayRetry {
                // Never a statement started after the limit.
                guard ContinuousClock.now < deadline else { throw DatabaseUnavailable.noAnswer(within: limit) }
            }
        }
        return try await lendOnce(body, until: deadline)
    }

    /// Loans a statement may take, all before the deadline: after a restart, the pool may hold
    /// several dead connections it has not yet noticed.
    static let attempts = 3

    /// One loan, ending at `deadline` (the retry has what the first loan left).
    ///
    /// The wait for a connection runs in a task of its own, not a child: the borrower must be
    /// able to leave at the deadline even when the pool's wait does not end on cancellation
    /// (a cancellation that comes before the pool has queued the wait is lost, and the wait
    /// then lasts until a connection can be made). A connection that comes after the borrower
    /// left goes straight back to the pool.
    private func lendOnce<Result: Sendable>(
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> Result, until deadline: ContinuousClock.Instant
    ) async throws -> Result {
        guard let client = clients.lendable else { throw DatabaseUnavailable.down }
        let loan = PostgresLoan(limit: limit)
        let lease = Task {
            do {
                try await client.withConnection { connection in await loan.lend(connection) }
            } catch {
                loan.failToLend(error)
            }
        }
        // On the global executor: a timer on a busy event loop would fire late.
        let timer = Task(executorPreference: globalConcurrentExecutor) { [clients] in
            await Self.watch(loan, until: deadline, clients: clients)
        }
        defer {
            loan.giveBack()
            timer.cancel()
            lease.cancel()
        }
        let connection: PostgresConnection
        do {
            connection = try await withTaskCancellationHandler {
                try await loan.connection()
            } onCancel: {
                loan.failToLend(CancellationError())
            }
        } catch {
            throw notLent(because: error, loan: loan, by: client)
        }
        // A connection the server ended while it sat in the pool: nothing was sent on it, so
        // another loan may be tried. It goes back only once the pool knows it is closed, or
        // the next borrower could be lent it again.
        if connection.isClosed {
            await connection.close(waitingAtMost: .milliseconds(500))
            throw DatabaseUnavailable.connectionLost
        }
        // The statements run in a task of their own, so that the borrower can leave at the
        // deadline even if a statement on a connection closed under it were never failed.
        let work = Task { try await body(connection.sql(queryLogLevel: nil)) }
        do {
            return try await loan.outcome(of: work)
        } catch {
            let cause = (error as? ConnectionLeftUnusable)?.cause ?? error
            let unavailable = Self.unavailable(cause, loan: loan)
            // The server ended the connection (shut down, restarted) or it closed unanswered:
            // the probe finds out at once whether the database is there.
            if unavailable == .connectionLost || unavailable == .closedUnanswered { clients.lost() }
            // Closed, the client drops it from its pool rather than lend it again.
            if error is ConnectionLeftUnusable || unavailable != nil {
                await connection.close(waitingAtMost: .milliseconds(500))
            }
            throw unavailable ?? cause
        }
    }

    /// Watches `loan` until `deadline`, then ends it (``PostgresLoan/expire()``), unless the
    /// task is cancelled first (the loan ended):
    /// - a borrower still waiting for a connection after ``slowLend`` has the probe find out
    ///   whether the database is there (a pool that cannot connect keeps its borrowers waiting,
    ///   silently);
    /// - a borrower whose connection has been closed for a ``watchInterval`` is told that no
    ///   answer will come (a statement written once the connection let go of its channel is
    ///   never answered; one written before is failed within the interval).
    private static func watch(_ loan: PostgresLoan, until deadline: ContinuousClock.Instant, clients: PostgresClients)
        async
    {
        let slow = ContinuousClock.now + slowLend
        var askedProbe = false, sawClosed = false
        while ContinuousClock.now < deadline {
            guard (try? await Task.sleep(until: min(deadline, .now + watchInterval))) != nil else { return }
            if loan.lentConnectionIsClosed {
                if sawClosed { loan.connectionClosed() }
                sawClosed = true
            }
            if !askedProbe, loan.isWaitingForConnection, ContinuousClock.now >= slow {
                askedProbe = true
                clients.lost()
            }
        }
        await loan.expire()
    }

    /// How long a borrower waits for a connection before the probe is asked whether the
    /// database is there (a probe that finds it there changes nothing).
    static let slowLend = Duration.milliseconds(500)
    /// How often a loan is looked at while it lasts.
    static let watchInterval = Duration.milliseconds(100)

    /// Why `client` lent no connection, as the caller should hear it: its own cancellation as
    /// it is, and every failure of the pool or the database as ``DatabaseUnavailable`` (a
    /// client replaced meanwhile, whose pool failed its waiting borrowers, may be borrowed from
    /// again at once).
    private func notLent(because error: any Error, loan: PostgresLoan, by client: PostgresClient) -> any Error {
        if error is CancellationError { return error }
        if client !== clients.current { return DatabaseUnavailable.connectionLost }
        if let unavailable = error as? DatabaseUnavailable {
            if loan.didExpire { clients.lost() }
            return unavailable
        }
        clients.lost()
        return DatabaseUnavailable.noAnswer(within: limit)
    }

    /// `error` as ``DatabaseUnavailable`` when it says the database could not be reached in
    /// time or the connection was lost; `nil` for any other failure (a constraint, bad SQL).
    private static func unavailable(_ error: any Error, loan: PostgresLoan) -> DatabaseUnavailable? {
        if let unavailable = error as? DatabaseUnavailable { return unavailable }
        if loan.didExpire { return .noAnswer(within: loan.limit) }
        // A statement of its own may have committed before its connection was lost: it is not
        // run again (a transaction that lost its connection before its COMMIT says so itself,
        // and is; see ServerDatabase.transaction).
        return isConnectionLost(error) ? .closedUnanswered : nil
    }

    /// Whether `error` is the connection failing rather than the statement: closed by either
    /// side, broken, or ended by the server (SQLSTATE classes 08, connection exception, and
    /// 57P, the server ending the session: a shutdown, a restart, `pg_terminate_backend`).
    static func isConnectionLost(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return false }
        switch error.code {
        case .serverClosedConnection, .clientClosedConnection, .connectionError, .uncleanShutdown, .poolClosed:
            return true
        case .server:
            let state = error.serverInfo?[.sqlState] ?? ""
            return state.hasPrefix("08") || state.hasPrefix("57P")
        default:
            return false
        }
    }

    /// How long a statement may wait for a connection and its answer: the URL's `wait_limit`
    /// (seconds; `?wait_limit=10`), or ``ServerDatabase/postgresWaitLimit``.
    static func waitLimit(url: String, location: DatabaseLocation) throws(DatabaseError) -> Duration {
        guard
            let text = URLComponents(string: url)?.queryItems?.last(where: { $0.name.lowercased() == "wait_limit" })?
                .value
        else {
            return ServerDatabase.postgresWaitLimit
        }
        guard let seconds = Double(text), seconds > 0, seconds <= 3600 else {
            throw DatabaseError("\(location): wait_limit must be a number of seconds from 0 to 3600, not '\(text)'")
        }
        return .milliseconds(Int64(seconds * 1000))
    }

    /// The pool's configuration for a `postgres://user:password@host:port/database` URL
    /// (`?sslmode=disable|prefer|require`; `prefer` by default, as libpq does; `wait_limit`, see
    /// ``waitLimit(url:location:)``), the same for the single connection of
    /// ``PostgresClients``' probe, and the URL's wait limit.
    static func configuration(url: String, location: DatabaseLocation) throws(DatabaseError) -> (
        client: PostgresClient.Configuration, probe: PostgresConnection.Configuration, waitLimit: Duration
    ) {
        let expected = "expected postgres://user:password@host:port/database[?sslmode=disable|prefer|require]"
        guard let components = URLComponents(string: url),
            let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme.lowercased()),
            let host = components.host, !host.isEmpty,
            let username = components.user, !username.isEmpty
        else {
            throw DatabaseError("\(location) is not a usable PostgreSQL URL; \(expected)")
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        let mode =
            components.queryItems?.last(where: { ["sslmode", "tlsmode", "ssl", "tls"].contains($0.name.lowercased()) })?
            .value ?? "prefer"
        let tls: PostgresClient.Configuration.TLS
        let probeTLS: PostgresConnection.Configuration.TLS
        do {
            switch mode.lowercased() {
            case "disable", "false":
                (tls, probeTLS) = (.disable, .disable)
            case "prefer", "allow", "true":
                (tls, probeTLS) = (
                    .prefer(.makeClientConfiguration()),
                    .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
                )
            case "require", "verify-ca", "verify-full":
                (tls, probeTLS) = (
                    .require(.makeClientConfiguration()),
                    .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
                )
            default:
                throw DatabaseError("\(location): unknown sslmode '\(mode)'; \(expected)")
            }
        } catch let error as DatabaseError {
            throw error
        } catch {
            throw DatabaseError("\(location): TLS could not be set up (\(String(describing: type(of: error))))")
        }
        let statementLimit = try waitLimit(url: url, location: location)
        var configuration = PostgresClient.Configuration(
            host: host,
            port: components.port ?? 5432,
            username: username,
            password: components.password,
            database: database.isEmpty ? nil : database,
            tls: tls
        )
        configuration.options.connectTimeout = .seconds(5)
        // No keep-alive queries: one sent on a connection the server has just ended can be
        // lost without an answer, and the pool's shutdown then waits for it forever. The wait
        // limit of every loan and the change feed's heartbeat find dead connections instead.
        configuration.options.keepAliveBehavior = nil
        var probe = PostgresConnection.Configuration(
            host: host, port: components.port ?? 5432, username: username, password: components.password,
            database: database.isEmpty ? nil : database, tls: probeTLS)
        probe.options.connectTimeout = .init(statementLimit)
        return (configuration, probe, statementLimit)
    }
}
