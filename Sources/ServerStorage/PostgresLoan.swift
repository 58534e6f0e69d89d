import Locking
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
        /// The borrower waiting for its statements' outcome, resumed with it or at the limit.
        var outcome: (any OutcomeWaiter)?
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
    /// or ``DatabaseUnavailable`` at the limit (`work` is cancelled then, and left to end on its
    /// own once its connection, closed by ``expire()``, fails it).
    func outcome<Result: Sendable>(of work: Task<Result, any Error>) async throws -> Result {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
                let waiter = Waiter(continuation: continuation)
                let ended = state.withLock { state -> DatabaseUnavailable? in
                    if state.didExpire { return .noAnswer(within: limit) }
                    if state.didClose { return .closedUnanswered }
                    state.outcome = waiter
                    return nil
                }
                if let ended {
                    work.cancel()
                    waiter.resume(throwing: ended)
                    return
                }
                Task {
                    let result = await work.result
                    self.state.withLock { $0.outcome = nil }
                    waiter.resume(with: result)
                }
            }
        } onCancel: {
            work.cancel()
        }
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
        let outcome = state.withLock { state -> (any OutcomeWaiter)? in
            state.didClose = true
            defer { state.outcome = nil }
            return state.outcome
        }
        outcome?.give(DatabaseUnavailable.closedUnanswered)
    }

    /// The timer's side: the limit has passed. Tells a borrower still waiting, and closes a
    /// connection still in use.
    func expire() async {
        let (borrower, outcome, inUse) = state.withLock { state -> (CheckedContinuation<PostgresConnection, any Error>?, (any OutcomeWaiter)?, PostgresConnection?) in
            guard !state.isGivenBack, state.failure == nil else { return (nil, nil, nil) }
            state.didExpire = true
            defer { (state.borrower, state.outcome) = (nil, nil) }
            return (state.borrower, state.outcome, state.connection)
        }
        let noAnswer = DatabaseUnavailable.noAnswer(within: limit)
        borrower?.resume(throwing: noAnswer)
        outcome?.give(noAnswer)
        guard let inUse else { return }
        try? await inUse.close()
        _ = await ServerStorage.outcome(of: Task { try await inUse.closeFuture.get() }, within: .milliseconds(500))
    }
}

/// A borrower waiting for its statements' outcome, whatever their result type.
private protocol OutcomeWaiter: Sendable {
    /// Ends the wait with `error`, unless it has ended.
    func give(_ error: any Error)
}

/// The continuation of ``PostgresLoan/outcome(of:)``, resumed once: by the outcome or by the limit.
private final class Waiter<Result: Sendable>: OutcomeWaiter {
    private let continuation: Locked<CheckedContinuation<Result, any Error>?>

    init(continuation: CheckedContinuation<Result, any Error>) {
        self.continuation = Locked(continuation)
    }

    func resume(with result: Swift.Result<Result, any Error>) {
        continuation.withLock { continuation in
            defer { continuation = nil }
            return continuation
        }?.resume(with: result)
    }

    func resume(throwing error: any Error) {
        resume(with: .failure(error))
    }

    func give(_ error: any Error) {
        resume(throwing: error)
    }
}
