import FleetTokens

/// Tokens already signed, handed out again while more than half their life is left: with IAM
/// every signature is a network round trip under a per-project quota. Keyed by the signing
/// account, the token kind and the resource id, so a token is only ever reused for exactly
/// what it names; the caller's session and assignment are checked before every reuse.
actor TokenReuse {
    /// How many tokens are kept at most; past that, those no longer reusable are dropped, then
    /// the oldest, down to nine tenths of it.
    static let capacity = 100_000

    private var tokens: [String: MintedToken] = [:]

    /// The token kept for `key`, when more than half of its life is left at `now` (epoch seconds).
    func token(for key: String, now: Int64) -> MintedToken? {
        guard let kept = tokens[key] else { return nil }
        guard Self.isReusable(kept, at: now) else {
            tokens[key] = nil
            return nil
        }
        return kept
    }

    /// Keeps `token` for `key`.
    func keep(_ token: MintedToken, for key: String, now: Int64) {
        if tokens.count >= Self.capacity {
            tokens = tokens.filter { Self.isReusable($0.value, at: now) }
            let excess = tokens.count - Self.capacity * 9 / 10
            if excess > 0 {
                for oldest in tokens.sorted(by: { $0.value.claims.issuedAt < $1.value.claims.issuedAt }).prefix(excess)
                {
                    tokens[oldest.key] = nil
                }
            }
        }
        tokens[key] = token
    }

    /// Whether more than half of `token`'s life is left at `now`.
    private static func isReusable(_ token: MintedToken, at now: Int64) -> Bool {
        now < token.claims.issuedAt + token.claims.lifetime / 2
    }
}
