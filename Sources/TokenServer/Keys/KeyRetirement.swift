import FleetTokens

/// When a replaced signing key leaves the published keys: once the last token it can have
/// signed has expired, i.e. the token lifetime after its replacement began to sign, plus an
/// overlap for replicas that signed with it until they heard of the change.
struct KeyRetirement: Sendable {
    /// The longest a token lives.
    let tokenLifetime: Int64
    /// ``TokenServerOptions/keyOverlap``.
    let overlap: Int64

    init(_ options: TokenServerOptions) {
        tokenLifetime = options.tokenLifetime.components.seconds
        overlap = options.keyOverlap.components.seconds
    }

    /// When `key` leaves the published keys; `nil` while it signs.
    func time(of key: StoredSigningKey) -> Int64? {
        key.supersededAt.map { $0 + tokenLifetime + overlap }
    }

    /// Whether `key` is published at `now` (epoch seconds).
    func isPublished(_ key: StoredSigningKey, at now: Int64) -> Bool {
        key.retiredAt == nil && (time(of: key).map { now < $0 } ?? true)
    }
}
