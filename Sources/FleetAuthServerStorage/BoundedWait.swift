import PostgresNIO

/// Waits for the outcome of `task` for at most `limit`: `nil` when the limit, or the waiter's
/// own cancellation, comes first. `task` is then cancelled and left to end on its own.
///
/// For work that may never end: a statement written to a PostgreSQL connection after the
/// connection let go of its channel is never answered, and ignores cancellation.
func outcome<Value: Sendable>(of task: Task<Value, any Error>, within limit: Duration) async -> Result<
    Value, any Error
>? {
    let waiter = OnceContinuation<Result<Value, any Error>?>()
    let timer = Task {
        guard (try? await Task.sleep(for: limit)) != nil else { return }
        waiter.resume(with: nil)
    }
    defer { timer.cancel() }
    let outcome = await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
            waiter.set(continuation)
            Task { waiter.resume(with: await task.result) }
        }
    } onCancel: {
        waiter.resume(with: nil)
    }
    if outcome == nil { task.cancel() }
    return outcome
}

extension PostgresConnection {
    /// Closes the connection (unless it is closed) and waits until it has closed, so that its
    /// pool has heard it and lends it no more, for `limit` at most: a close on a busy event
    /// loop must not hold the caller.
    func close(waitingAtMost limit: Duration) async {
        _ = await outcome(
            of: Task {
                let closing: EventLoopFuture<Void> = self.close()
                try await closing.get()
                try await self.closeFuture.get()
            }, within: limit)
    }
}
