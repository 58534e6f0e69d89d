import HummingbirdBcrypt
import NIOPosix

/// Hashes and checks passwords with bcrypt, on NIO's blocking thread pool so that the
/// deliberately slow work never stalls request handling.
public struct PasswordHasher: Sendable {
    /// bcrypt's cost (log2 of its rounds), 4 to 31.
    public let cost: UInt8
    /// A hash of no one's password, checked against when the account does not exist so that a
    /// wrong username takes as long as a wrong password.
    private let decoyHash: String

    /// A hasher with `cost` (12 by default; 4, the least, makes tests fast).
    public init(cost: UInt8 = 12) {
        let cost = min(max(cost, 4), 31)
        self.cost = cost
        self.decoyHash = Bcrypt.hash("decoy password of no account", cost: cost)
    }

    /// The bcrypt hash of `password`.
    public func hash(_ password: String) async throws -> String {
        let cost = self.cost
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    /// Whether `password` matches `hash`; with no hash, spends the same time and says no.
    public func verify(_ password: String, hash: String?) async throws -> Bool {
        // bcrypt reads C strings: a NUL would cut the password short.
        let usable = !password.utf8.contains(0)
        let checked = hash ?? decoyHash
        let matches = try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: checked) }
        return usable && hash != nil && matches
    }
}
