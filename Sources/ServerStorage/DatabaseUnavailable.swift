/// The database could not be reached in time, or lost the connection a statement ran on: a
/// failure of the moment, which a server answers with 503 and `Retry-After`, not 500. Its
/// message says what happened and never names the database's address or any value.
package struct DatabaseUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
    /// What happened, in words a caller may read.
    package let description: String
    /// Whether a statement that failed so may be run again on another connection: `false` once
    /// a `COMMIT` was sent, whose outcome is then unknown.
    package let mayRetry: Bool

    /// How long a caller should wait before trying again.
    package static let retryAfter = Duration.seconds(1)

    /// No connection, or no answer on one, within `limit`.
    static func noAnswer(within limit: Duration) -> DatabaseUnavailable {
        DatabaseUnavailable(description: "the database did not answer within \(limit)", mayRetry: false)
    }

    /// The connection a statement ran on was closed under it before it could take effect.
    static let connectionLost = DatabaseUnavailable(description: "the connection to the database was lost", mayRetry: true)

    /// The connection closed while a statement waited for its answer: whatever it was, it may
    /// or may not have taken effect.
    static let closedUnanswered = DatabaseUnavailable(
        description: "the connection to the database closed before it answered", mayRetry: false)

    /// An earlier statement found the database unreachable, and it has not answered since.
    static let down = DatabaseUnavailable(
        description: "the database does not answer; connecting is tried again every \(PostgresClients.probeInterval)", mayRetry: false)

    /// The connection was lost while a transaction committed: it may or may not have been made.
    static let commitUnconfirmed = DatabaseUnavailable(
        description: "the connection to the database was lost while a change was committed; it may or may not have been made",
        mayRetry: false
    )
}
