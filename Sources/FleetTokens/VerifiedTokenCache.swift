import FleetAuthLocking
import Foundation

/// Remembers tokens that passed verification, keyed by the whole token, so a token seen
/// before costs a hash and a lookup instead of RSA work. Entries are forgotten at the token's
/// `exp`; the number of entries is bounded.
///
/// A lookup finds the token by a hash of all its bytes (the standard library's SipHash,
/// seeded per process) and then compares every byte, so no hash collision can stand in for a
/// verification. That costs memory (each entry keeps its token, about 1 KiB) and saves time:
/// a SHA-256 digest of the token as the key took about 70% of a cached verify.
final class VerifiedTokenCache: Sendable {
    private let capacity: Int
    private let entries: Locked<[String: VerifiedToken]>

    /// Creates a cache holding at most `capacity` tokens.
    init(capacity: Int) {
        self.capacity = max(1, capacity)
        self.entries = Locked([:])
    }

    /// The verified `token` if it is stored and has not reached its `exp` at `now`.
    func lookup(_ token: String, now: Int64) -> VerifiedToken? {
        entries.withLock { entries in
            guard let found = entries[token] else { return nil }
            guard now < found.claims.expiresAt else {
                entries[token] = nil
                return nil
            }
            return found
        }
    }

    /// Stores `token`, verified, until its `exp`, making room when the cache is full.
    func insert(_ token: String, verified: VerifiedToken, now: Int64) {
        entries.withLock { entries in
            if entries.count >= capacity {
                entries = entries.filter { now < $0.value.claims.expiresAt }
            }
            if entries.count >= capacity {
                // Still full of live tokens: keep half; the dropped ones just cost one more verify.
                entries = Dictionary(uniqueKeysWithValues: entries.prefix(capacity / 2).map { ($0.key, $0.value) })
            }
            entries[token] = verified
        }
    }

    /// Forgets every token.
    func removeAll() {
        entries.withLock { $0.removeAll() }
    }

    /// How many tokens are stored.
    var count: Int { entries.withLock { $0.count } }
}
