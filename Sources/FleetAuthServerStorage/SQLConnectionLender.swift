import Logging
import NIOCore
import SQLKit

/// Lends out one connection at a time: every query of `body` runs on the same session.
protocol SQLConnectionLender: Sendable {
    /// Runs `body` with a connection that no one else uses until `body` returns. When `body`
    /// throws ``ConnectionLeftUnusable``, the connection is closed rather than lent again and
    /// the error's `cause` is thrown.
    func withConnection<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result)
        async throws -> Result
}

/// Thrown from a lent connection's body when the connection may be left inside a transaction
/// (its `ROLLBACK` failed): lent again, it would run later statements in that transaction,
/// which nothing would ever commit.
struct ConnectionLeftUnusable: Error {
    /// Why the transaction failed in the first place.
    let cause: any Error
}

/// An `SQLDatabase` over a pool: each query borrows a connection for its own duration, so
/// concurrent requests do not queue behind one connection; `withSession` keeps one for a
/// whole closure (a transaction). `afterWrite`, when given, is told of every statement that
/// succeeded (a database for writes tells its change feed). A full or read-only disk fails a
/// statement with ``DatabaseUnavailable``.
struct PooledSQLDatabase: SQLDatabase {
    let lender: any SQLConnectionLender
    let logger: Logger
    let eventLoop: any EventLoop
    let dialect: any SQLDialect
    var afterWrite: (@Sendable () -> Void)? = nil

    /// Queries are not logged: their binds hold password and session-token hashes.
    var queryLogLevel: Logger.Level? { nil }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<
        Void
    > {
        let promise = eventLoop.makePromise(of: Void.self)
        promise.completeWithTask { try await self.execute(sql: query, onRow) }
        return promise.futureResult
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try await DatabaseUnavailable.refusingStorageFailures {
            try await lender.withConnection { connection in
                try await connection.execute(sql: query, onRow)
            }
        }
        afterWrite?()
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        let result = try await DatabaseUnavailable.refusingStorageFailures {
            try await lender.withConnection { connection in
                SessionResult(value: try await closure(connection))
            }
        }
        afterWrite?()
        return result.value
    }
}

/// A session's result on its way to the caller. SQLKit does not require it to be `Sendable`;
/// it is made by the session's closure and handed over once, after the closure has returned,
/// to the one caller waiting for it, and never touched by the session again.
private struct SessionResult<Value>: @unchecked Sendable {
    let value: Value
}
