/// A change accepted by ``FleetState`` and waiting for its batch to be saved.
struct PendingWrite {
    /// The order in which writes were accepted.
    let sequence: UInt64
    /// The resource to save.
    let record: FleetRecord
    /// Resumed when the batch holding the write is saved, or failed.
    let acknowledgement: CheckedContinuation<Void, any Error>
}
