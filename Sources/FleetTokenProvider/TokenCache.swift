/// The tokens the provider holds, one per context, at most `capacity` of them; when a new
/// context would exceed that, the least recently used one is dropped.
struct TokenCache: Sendable {
    private struct Slot: Sendable {
        var token: CachedToken
        var lastUse: UInt64
    }

    /// How many contexts are held at most.
    let capacity: Int
    private var slots: [AuthorizationContext: Slot] = [:]
    private var useCounter: UInt64 = 0

    /// An empty cache for at most `capacity` contexts (at least one).
    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The token held for `context`, marking it as just used.
    mutating func token(for context: AuthorizationContext) -> CachedToken? {
        guard let index = slots.index(forKey: context) else { return nil }
        useCounter &+= 1
        slots.values[index].lastUse = useCounter
        return slots.values[index].token
    }

    /// Holds `token` for `context`, replacing what was held, and drops the least recently
    /// used context if that makes one too many.
    mutating func store(_ token: CachedToken, for context: AuthorizationContext) {
        if slots[context] == nil, slots.count >= capacity, let oldest = leastRecentlyUsed() {
            slots[oldest] = nil
        }
        useCounter &+= 1
        slots[context] = Slot(token: token, lastUse: useCounter)
    }

    /// Drops the token held for `context`, if any.
    mutating func remove(_ context: AuthorizationContext) {
        slots[context] = nil
    }

    private func leastRecentlyUsed() -> AuthorizationContext? {
        slots.min { $0.value.lastUse < $1.value.lastUse }?.key
    }
}
