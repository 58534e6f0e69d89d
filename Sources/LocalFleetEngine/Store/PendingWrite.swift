import Locking

/// A change accepted by ``FleetState`` and waiting for its batch to be saved.
struct PendingWrite {
    /// The order in which writes were accepted.
    let sequence: UInt64
    /// The resource to save.
    let record: FleetRecord
    /// Completed when the batch holding the write is saved, or failed.
    let acknowledgement: WriteAcknowledgement
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

/// Where the caller of a write waits for its batch to be saved, apart from ``FleetState``: the
/// waiting caller resumes on its own executor, not on the actor, so a batch of a thousand
/// writes does not queue a thousand jobs on the actor once it is saved.
final class WriteAcknowledgement: Sendable {
    private enum State {
        case pending
        case waiting(CheckedContinuation<Void, any Error>)
        case done(Result<Void, any Error>)
    }

    private let state = Locked(State.pending)

    /// Waits until ``complete(_:)`` is called (returns at once if it was); call once.
    func wait() async throws {
        if case .done(let result) = state.withLock({ $0 }) { return try result.get() }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let result: Result<Void, any Error>? = state.withLock { state in
                switch state {
                case .pending:
                    state = .waiting(continuation)
                    return nil
                case .done(let result):
                    return result
                case .waiting:
                    preconditionFailure("a write's acknowledgement is awaited once")
                }
            }
            if let result { continuation.resume(with: result) }
        }
    }

    /// Completes the write with `result`, resuming its waiting caller; call once.
    func complete(_ result: Result<Void, any Error>) {
        let waiter: CheckedContinuation<Void, any Error>? = state.withLock { state in
            defer { state = .done(result) }
            switch state {
            case .waiting(let continuation): return continuation
            case .pending: return nil
            case .done: preconditionFailure("a write is acknowledged once")
            }
        }
        waiter?.resume(with: result)
    }
}
