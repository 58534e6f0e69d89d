import FleetAuthLocking

/// A change accepted by ``EngineState`` and waiting for its batch to be saved.
struct PendingWrite {
    /// The order in which writes were accepted.
    let sequence: UInt64
    /// The resources to save: all of them or none, in one batch.
    let records: [ResourceChange]
    /// Completed when the batch holding the write is saved, or failed.
    let acknowledgement: WriteAcknowledgement
    /// Whether it removes every vehicle and trip (a harness's reset): published, they are
    /// dropped at once instead of one index update each.
    var emptiesVehiclesAndTrips = false
}

/// A result of an accepted write that its caller may use only once the write is saved.
struct Accepted<Value: Sendable>: Sendable {
    /// The result (the resource as written).
    let value: Value
    /// Completed when the write is saved, or failed.
    let acknowledgement: WriteAcknowledgement

    /// Waits until the write is saved and returns the result, or throws why it was not.
    func saved() async throws -> Value {
        try await acknowledgement.wait()
        return value
    }
}

/// Where the caller of a write learns that its batch is saved, apart from ``EngineState``: a
/// waiting task resumes on its own executor, and a callback runs on the thread that completed
/// the save, never on the state's lock, so a batch of a thousand writes does not queue a
/// thousand jobs behind the state.
final class WriteAcknowledgement: Sendable {
    private typealias Callback = @Sendable (Result<Void, any Error>) -> Void

    private enum State {
        case pending
        case notifying(Callback)
        case done(Result<Void, any Error>)
    }

    private let state = Locked(State.pending)

    /// Calls `callback` with the outcome once ``complete(_:)`` is called (at once, on this
    /// thread, if it was); call once, or ``wait()`` once.
    func whenComplete(_ callback: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        let outcome: Result<Void, any Error>? = state.withLock { state in
            switch state {
            case .pending:
                state = .notifying(callback)
                return nil
            case .done(let result):
                return result
            case .notifying:
                preconditionFailure("a write's acknowledgement is awaited once")
            }
        }
        if let outcome { callback(outcome) }
    }

    /// Waits until ``complete(_:)`` is called (returns at once if it was); call once.
    func wait() async throws {
        if case .done(let result) = state.withLock({ $0 }) { return try result.get() }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            whenComplete { continuation.resume(with: $0) }
        }
    }

    /// Completes the write with `result`, telling its waiting caller; call once.
    func complete(_ result: Result<Void, any Error>) {
        let callback: Callback? = state.withLock { state in
            defer { state = .done(result) }
            switch state {
            case .notifying(let callback): return callback
            case .pending: return nil
            case .done: preconditionFailure("a write is acknowledged once")
            }
        }
        callback?(result)
    }
}
