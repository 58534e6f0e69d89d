/// What a check of the database found, for a server's `/healthz`.
package struct DatabaseHealth: Sendable, Equatable, Encodable {
    /// `ok` while the database answers, `unavailable` when it does not.
    package let status: String
    /// `answers`, or why it did not (never its address or a value).
    package let database: String
    /// On PostgreSQL, whether this process hears the changes other processes make, and so may
    /// serve answers from memory; absent on SQLite.
    package let changeFeed: String?

    /// Whether the database answered.
    package var isHealthy: Bool { status == "ok" }

    /// A database that answered.
    static func answering(changeFeed: String?) -> DatabaseHealth {
        DatabaseHealth(status: "ok", database: "answers", changeFeed: changeFeed)
    }

    /// A database that did not answer, and why.
    static func unavailable(_ reason: String, changeFeed: String?) -> DatabaseHealth {
        DatabaseHealth(status: "unavailable", database: reason, changeFeed: changeFeed)
    }
}
