/// The accepted and not yet saved versions of one kind of resource, by id (`nil`: a removal),
/// each with the sequence number of the write that made it: what a write is checked against,
/// on top of what is saved.
struct PendingChanges<Resource> {
    private var changes: [String: (sequence: UInt64, resource: Resource?)] = [:]

    /// The latest version of resource `id`: the pending one, else the `saved` one.
    func latest(_ id: String, saved: [String: Resource]) -> Resource? {
        if let pending = changes[id] { return pending.resource }
        return saved[id]
    }

    /// The ids whose latest version exists: the `saved` ones not removed since, and those
    /// written since.
    func latestIDs(saved: [String: Resource]) -> [String] {
        saved.keys.filter { changes[$0] == nil } + changes.compactMap { $0.value.resource == nil ? nil : $0.key }
    }

    /// Takes note of write `sequence`'s version of resource `id` (`nil`: its removal).
    mutating func record(_ id: String, _ resource: Resource?, sequence: UInt64) {
        changes[id] = (sequence, resource)
    }

    /// Forgets resource `id`'s pending version once write `sequence` is saved, unless a later
    /// write superseded it.
    mutating func saved(_ id: String, sequence: UInt64) {
        if changes[id]?.sequence == sequence { changes[id] = nil }
    }

    /// Forgets every pending version.
    mutating func removeAll() {
        changes.removeAll()
    }
}
