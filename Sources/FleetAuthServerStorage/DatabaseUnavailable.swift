import PostgresNIO
import SQLiteKit

/// The database could not be reached in time, lost the connection a statement ran on, or
/// cannot take a write (its disk is full or read-only): a failure a server answers with 503
/// and `Retry-After`, not 500. Its message says what happened and never names the database's
/// address or any value.
package struct DatabaseUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
    /// What happened, in words a caller may read.
    package let description: String
    /// Whether a statement that failed so may be run again on another connection: `false` once
    /// a `COMMIT` was sent, whose outcome is then unknown.
    package let mayRetry: Bool
    /// How long a caller should wait before trying again.
    package let retryAfter: Duration

    /// The wait for a failure of the moment (a connection lost, a slow answer).
    package static let momentaryRetryAfter = Duration.seconds(1)
    /// The wait for storage that needs an operator (a full or read-only disk).
    package static let storageRetryAfter = Duration.seconds(30)

    private init(description: String, mayRetry: Bool, retryAfter: Duration = momentaryRetryAfter) {
        self.description = description
        self.mayRetry = mayRetry
        self.retryAfter = retryAfter
    }

    /// Runs `work`, turning the storage's refusal of a write (a full or read-only disk) into
    /// ``DatabaseUnavailable``, so that a server answers 503 with the reason, not 500.
    static func refusingStorageFailures<Result>(_ work: () async throws -> Result) async throws -> Result {
        do {
            return try await work()
        } catch {
            let cause = (error as? ConnectionLeftUnusable)?.cause ?? error
            throw storageRefusal(cause) ?? error
        }
    }

    /// `error` as the storage refusing a write, with nothing written: SQLite's full, read-only
    /// or failing disk, PostgreSQL's full disk (SQLSTATE 53100), read-only transaction (25006)
    /// or I/O error (58030); `nil` for any other failure.
    static func storageRefusal(_ error: any Error) -> DatabaseUnavailable? {
        let problem: String
        switch error {
        case let error as SQLiteError:
            switch error.reason {
            case .full:
                problem = "the data directory's disk is full"
            case .readOnly, .readonlyCantLock, .readonlyDirectory, .readonlyInRecovery, .readonlyInRollback,
                .readonlyBackingMoved:
                problem = "the data directory's disk is read-only"
            case .ioError, .ioErrorFailedWrite, .ioErrorFailedSync, .ioErrorFailedDirSync, .ioErrorFailedTruncate,
                .ioErrorFailedSharedMemOpen, .ioErrorFailedSharedMemSize:
                problem = "the data directory's disk failed a write"
            default:
                return nil
            }
        case let error as PSQLError where error.code == .server:
            switch error.serverInfo?[.sqlState] {
            case "53100": problem = "the database server's disk is full"
            case "25006": problem = "the database is read-only"
            case "58030": problem = "the database server's disk failed a write"
            default: return nil
            }
        default:
            return nil
        }
        return DatabaseUnavailable(
            description: problem + "; nothing was written", mayRetry: false, retryAfter: storageRetryAfter)
    }

    /// No connection, or no answer on one, within `limit`.
    static func noAnswer(within limit: Duration) -> DatabaseUnavailable {
        DatabaseUnavailable(description: "the database did not answer within \(limit)", mayRetry: false)
    }

    /// The connection a statement ran on was closed under it before it could take effect.
    static let connectionLost = DatabaseUnavailable(
        description: "the connection to the database was lost", mayRetry: true)

    /// The connection closed while a statement waited for its answer: whatever it was, it may
    /// or may not have taken effect.
    static let closedUnanswered = DatabaseUnavailable(
        description: "the connection to the database closed before it answered", mayRetry: false)

    /// An earlier statement found the database unreachable, and it has not answered since.
    static let down = DatabaseUnavailable(
        description: "the database does not answer; connecting is tried again every \(PostgresClients.probeInterval)",
        mayRetry: false)

    /// The connection was lost while a transaction committed: it may or may not have been made.
    static let commitUnconfirmed = DatabaseUnavailable(
        description:
            "the connection to the database was lost while a change was committed; it may or may not have been made",
        mayRetry: false
    )
}
