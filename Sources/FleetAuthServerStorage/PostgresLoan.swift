import FleetAuthLocking
import PostgresNIO

/// One loan of a pooled PostgreSQL connection, bounded in time.
///
/// The pool's side (``lend(_:)``) hands the connection over and holds it until the borrower
/// gives it back; the borrower waits for it in ``connection()`` and gives it back with
/// ``giveBack()``; a timer calls ``expire()`` at the limit. A borrower still waiting then is
/// told the database did not answer, and a connection handed over too late goes straight back.
/// A borrower still using the connection has it closed under it, which fails the statement it
/// waits on: a database that stopped answering holds no one past the limit.
final class PostgresLoan: Sendable {
    private struct State {
        var connection: PostgresConnection?
        var failure: (any Error)?
        var didExpire = false
        /// The lent connection closed (``connectionClosed()``).
        var didClose = false
        var isGivenBack = false
        var borrower: CheckedContinuation<PostgresConnection, any Error>?
        var lender: CheckedContinuation<Void, Never>?
        /// Ends the wait of the borrower waiting for its statements' outcome with an error (at
        /// the limit, or once the connection closed), unless the outcome came first.
        var endOutcome: (@Sendable (any Error) -> Void)?
    }

    private let state = Locked(State())
    /// How long a loan may last, named in the error when it expires.
    let limit: Duration

    /// A loan of at most `limit`; its timer calls ``expire()``.
    init(limit: Duration) {
        self.limit = limit
    }

    /// Whether the connection lent is closed.
    var lentConnectionIsClosed: Bool {
        state.withLock { $0.connection?.isClosed ?? false }
    }

    /// Whether the borrower is still waiting for a connection.
    var isWaitingForConnection: Bool {
        state.withLock { $0.connection == nil && $0.failure == nil && !$0.didExpire && !$0.isGivenBack }
    }

    /// Whether the limit passed before the connection was given back.
    var didExpire: Bool {
        state.withLock { $0.didExpire }
    }

    /// The pool's side: hands `connection` to the borrower and returns once it is given back
    /// (at once when the loan has expired or ended already).
    func lend(_ connection: PostgresConnection) async {
        let borrower = state.withLock { state -> CheckedContinuation<PostgresConnection, any Error>?? in
            guard !state.didExpire, !state.isGivenBack, state.failure == nil else { return nil }
            state.connection = connection
            defer { state.borrower = nil }
            return .some(state.borrower)
        }
        guard let borrower else { return }
        borrower?.resume(returning: connection)
        await withCheckedContinuation { lender in
            let givenBack = state.withLock { state in
                if !state.isGivenBack { state.lender = lender }
                return state.isGivenBack
            }
            if givenBack { lender.resume() }
        }
    }

    /// The pool's side: no connection could be had (the wait was cancelled, the pool closed).
    func failToLend(_ error: any Error) {
        let borrower = state.withLock { state -> CheckedContinuation<PostgresConnection, any Error>? in
            guard state.connection == nil, !state.didExpire, state.failure == nil else { return nil }
            state.failure = error
            defer { state.borrower = nil }
            return state.borrower
        }
        borrower?.resume(throwing: error)
    }

    /// The borrower's side: the connection, once lent.
    ///
    /// - Throws: ``DatabaseUnavailable`` when the limit passes first, or why none could be lent.
    func connection() async throws -> PostgresConnection {
        try await withCheckedThrowingContinuation { borrower in
            let outcome = state.withLock { state -> Result<PostgresConnection, any Error>? in
                if let connection = state.connection { return .success(connection) }
                if let failure = state.failure { return .failure(failure) }
                if state.didExpire { return .failure(DatabaseUnavailable.noAnswer(within: limit)) }
                state.borrower = borrower
                return nil
            }
            if let outcome { borrower.resume(with: outcome) }
        }
    }

    /// The borrower's side: the outcome of `work`, the statements run on the lent connection,
    /// or ``DatabaseUnavailable`` at the limit or once the connection closed (`work` is cancelled
    /// then, and left to end on its own).
    func outcome<Value: Sendable>(of work: Task<Value, any Error>) async throws -> Value {
        let waiter = OnceContinuation<Result<Value, any Error>>()
        let ended = state.withLock { state -> DatabaseUnavailable? in
            if state.didExpire { return .noAnswer(within: limit) }
            if state.didClose { return .closedUnanswered }
            state.endOutcome = { error in
                work.cancel()
                waiter.resume(with: .failure(error))
            }
            return nil
        }
        if let ended {
            work.cancel()
            throw ended
        }
        Task {
            let result = await work.result
            state.withLock { $0.endOutcome = nil }
            waiter.resume(with: result)
        }
        return try await withTaskCancellationHandler {
            await withCheckedContinuation { waiter.set($0) }
        } onCancel: {
            work.cancel()
        }.get()
    }

    /// The borrower's side: done with the connection (or with waiting for it).
    func giveBack() {
        let lender = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.isGivenBack = true
            defer { state.lender = nil }
            return state.lender
        }
        lender?.resume()
    }

    /// The lent connection has been closed for a moment: a borrower still waiting for its
    /// statements' outcome is told that none will come (a statement written after the connection let go
    /// of its channel is never answered).
    func connectionClosed() {
        let endOutcome = state.withLock { state in
            state.didClose = true
            defer { state.endOutcome = nil }
            return state.endOutcome
        }
        endOutcome?(DatabaseUnavailable.closedUnanswered)
    }

    /// The timer's side: the limit has passed. Tells a borrower still waiting, and closes a
    /// connection still in use.
    func expire() async {
        let (borrower, endOutcome, inUse) = state.withLock {
            state -> (
                CheckedContinuation<PostgresConnection, any Error>?, (@Sendable (any Error) -> Void)?,
                PostgresConnection?
            ) in
            guard !state.isGivenBack, state.failure == nil else { return (nil, nil, nil) }
            state.didExpire = true
            defer { (state.borrower, state.endOutcome) = (nil, nil) }
            return (state.borrower, state.endOutcome, state.connection)
        }
        let noAnswer = DatabaseUnavailable.noAnswer(within: limit)
        borrower?.resume(throwing: noAnswer)
        endOutcome?(noAnswer)
        await inUse?.close(waitingAtMost: .milliseconds(500))
    }
}
