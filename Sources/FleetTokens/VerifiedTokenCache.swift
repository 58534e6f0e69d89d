import Crypto
import Foundation

/// Remembers tokens that passed verification, keyed by the SHA-256 of the whole token, so a
/// token seen before costs a hash and a lookup instead of RSA work. Entries are forgotten at
/// the token's `exp`; the number of entries is bounded.
final class VerifiedTokenCache: Sendable {
    /// A token's place in the cache: the SHA-256 of the whole token.
    struct Key: Hashable {
        let words: (UInt64, UInt64, UInt64, UInt64)

        /// The key of `token`.
        init(of token: String) {
            var token = token
            self = token.withUTF8 { Key(SHA256.hash(data: UnsafeRawBufferPointer($0))) }
        }

        private init(_ digest: SHA256.Digest) {
            words = digest.withUnsafeBytes { bytes in
                (bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
                 bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
                 bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self),
                 bytes.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
            }
        }

        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.words == rhs.words
        }

        func hash(into hasher: inout Hasher) {
            // The words are already uniformly distributed; one is enough to spread buckets.
            hasher.combine(words.0)
        }
    }

    private let capacity: Int
    private let entries: Locked<[Key: VerifiedToken]>

    /// Creates a cache holding at most `capacity` tokens.
    init(capacity: Int) {
        self.capacity = max(1, capacity)
        self.entries = Locked([:])
    }

    /// The verified token stored under `key` if it has not reached its `exp` at `now`.
    func lookup(_ key: Key, now: Int64) -> VerifiedToken? {
        entries.withLock { entries in
            guard let found = entries[key] else { return nil }
            guard now < found.claims.expiresAt else {
                entries[key] = nil
                return nil
            }
            return found
        }
    }

    /// Stores a verified token under `key` until its `exp`, making room when the cache is full.
    func insert(_ key: Key, verified: VerifiedToken, now: Int64) {
        entries.withLock { entries in
            if entries.count >= capacity {
                entries = entries.filter { now < $0.value.claims.expiresAt }
            }
            if entries.count >= capacity {
                // Still full of live tokens: keep half; the dropped ones just cost one more verify.
                entries = Dictionary(uniqueKeysWithValues: entries.prefix(capacity / 2).map { ($0.key, $0.value) })
            }
            entries[key] = verified
        }
    }

    /// Forgets every token.
    func removeAll() {
        entries.withLock { $0.removeAll() }
    }

    /// How many tokens are stored.
    var count: Int { entries.withLock { $0.count } }
}
